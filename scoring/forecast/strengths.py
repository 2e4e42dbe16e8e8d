"""Plackett–Luce strengths fitted to finishing orders by maximum a posteriori, with the Laplace
approximation for their uncertainty.

An entrant's log-strength ``theta`` makes it finish ahead of the others in proportion to
``exp(theta)``: the winner of an event is drawn with probability ``exp(theta_i) / sum exp``,
then second place among the rest, and so on. The prior ``theta ~ N(0, prior_sd^2)`` pulls
entrants with few results towards the average (0) and fixes the scale PL leaves free; event
``k`` of ``K`` weighs ``recency ** (K - 1 - k)``, so recent form counts more. The log posterior
is concave, so Newton's method finds its maximum in a few steps; the inverse of minus its
Hessian there is the covariance of the Laplace approximation.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Strengths:
    """Fitted log-strengths of ``units`` (MAP) and their Laplace covariance."""

    units: tuple[Hashable, ...]
    mean: np.ndarray
    cov: np.ndarray

    @property
    def sd(self) -> np.ndarray:
        return np.sqrt(np.diag(self.cov))

    def cholesky(self) -> np.ndarray:
        return np.linalg.cholesky(self.cov + 1e-12 * np.eye(len(self.units)))


def fit_plackett_luce(
    units: Sequence[Hashable],
    orders: Sequence[Sequence[Hashable]],
    *,
    prior_sd: float = 1.0,
    recency: float = 0.85,
    tolerance: float = 1e-10,
    max_steps: int = 100,
) -> Strengths:
    """MAP strengths of ``units`` from finishing ``orders`` (best first, oldest event first).

    An order may hold only the units that took part; units absent from every order keep the
    prior (mean 0, sd ``prior_sd``).
    """
    if prior_sd <= 0 or not 0 < recency <= 1:
        raise ValueError("prior_sd must be positive and recency in (0, 1]")
    index = {u: i for i, u in enumerate(units)}
    n = len(units)
    stages: list[tuple[np.ndarray, float]] = []
    count = len(orders)
    for k, order in enumerate(orders):
        weight = recency ** (count - 1 - k)
        idx = np.array([index[u] for u in order], dtype=np.int64)
        stages.append((idx, weight))
    precision = 1.0 / prior_sd**2
    theta = np.zeros(n)
    for _ in range(max_steps):
        grad, hess = _gradient_hessian(theta, stages, precision)
        step = np.linalg.solve(hess, grad)
        # Newton on a concave function; halve the step if it overshoots (rarely needed).
        value = _log_posterior(theta, stages, precision)
        scale = 1.0
        while scale > 1e-6:
            candidate = theta - scale * step
            if _log_posterior(candidate, stages, precision) >= value - 1e-12:
                break
            scale /= 2
        theta = theta - scale * step
        if float(np.max(np.abs(scale * step))) < tolerance:
            break
    _, hess = _gradient_hessian(theta, stages, precision)
    cov = np.linalg.inv(-hess)
    cov = (cov + cov.T) / 2
    return Strengths(tuple(units), theta, cov)


def _log_posterior(
    theta: np.ndarray, stages: Sequence[tuple[np.ndarray, float]], precision: float
) -> float:
    total = -0.5 * precision * float(theta @ theta)
    for idx, weight in stages:
        t = theta[idx]
        # log P(order) = sum_j [t_j - log sum_{m >= j} exp(t_m)]
        tail = np.logaddexp.accumulate(t[::-1])[::-1]
        total += weight * float(np.sum(t[:-1] - tail[:-1]))
    return total


def _gradient_hessian(
    theta: np.ndarray, stages: Sequence[tuple[np.ndarray, float]], precision: float
) -> tuple[np.ndarray, np.ndarray]:
    n = len(theta)
    grad = -precision * theta
    hess = -precision * np.eye(n)
    for idx, weight in stages:
        t = theta[idx]
        size = len(idx)
        for j in range(size - 1):
            rest = idx[j:]
            p = np.exp(t[j:] - np.logaddexp.reduce(t[j:]))
            grad[idx[j]] += weight
            grad[rest] -= weight * p
            hess[np.ix_(rest, rest)] -= weight * (np.diag(p) - np.outer(p, p))
    return grad, hess


__all__ = ["Strengths", "fit_plackett_luce"]
