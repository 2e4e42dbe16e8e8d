/* Podium live updates: follow a competition's event stream, fall back to polling.

   Any element with data-live-events="<stream URL>" and data-live-version="<the standings
   version the page shows>" subscribes. On a page (the default) a newer version re-fetches the
   page and swaps its <main> in place, unless the reader chose an earlier event (?after_*=N);
   data-live-mode="custom" leaves that to the page's own script (the big screen), which calls
   Podium.live.subscribe itself. When EventSource is missing or keeps failing, the page polls
   the same URL for its JSON state instead, and tries the stream again a minute later. */
(function () {
  "use strict";
  var POLL_MS = 15000;
  var RETRY_STREAM_MS = 60000;
  var FAILURES_BEFORE_POLLING = 3;

  function subscribe(url, version, handlers) {
    var current = Number(version) || 0;
    var source = null;
    var pollTimer = null;
    var failures = 0;
    var setState = handlers.state || function () {};

    function standings(data) {
      if (typeof data.version === "number" && data.version > current) {
        current = data.version;
        if (handlers.standings) handlers.standings(data);
      }
    }

    function poll() {
      fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) { if (data) standings(data); })
        .catch(function () {})  // offline for a moment: the next poll tries again
        .then(function () { if (pollTimer !== null) pollTimer = window.setTimeout(poll, POLL_MS); });
    }

    function startPolling() {
      if (source) { source.close(); source = null; }
      setState("polling");
      if (pollTimer === null) pollTimer = window.setTimeout(poll, POLL_MS);
      if (window.EventSource) window.setTimeout(connect, RETRY_STREAM_MS);
    }

    function connect() {
      if (!window.EventSource) { startPolling(); return; }
      if (pollTimer !== null) { window.clearTimeout(pollTimer); pollTimer = null; }
      source = new EventSource(url + (url.indexOf("?") < 0 ? "?" : "&") + "since=" + current);
      source.onopen = function () { failures = 0; setState("live"); };
      source.addEventListener("standings", function (event) { standings(JSON.parse(event.data)); });
      source.addEventListener("forecast", function (event) {
        if (handlers.forecast) handlers.forecast(JSON.parse(event.data));
      });
      source.onerror = function () {
        // The browser reconnects by itself (a stream the server ended, a dropped network);
        // only a refused stream (CLOSED) or several failures in a row switch to polling.
        failures += 1;
        if (source.readyState === 2 || failures >= FAILURES_BEFORE_POLLING) startPolling();
        else setState("reconnecting");
      };
    }

    connect();
    return {version: function () { return current; }};
  }

  function refreshPage(element) {
    // The reader chose an earlier event: keep what they look at.
    if (/[?&]after_[a-z]+=/.test(window.location.search)) return;
    fetch(window.location.href, {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) return;
        // The page's <main>, or the whole body of a page without one (the embed).
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("main") || doc.body;
        var main = document.querySelector("main") || document.body;
        if (!fresh || !main) return;
        main.innerHTML = fresh.innerHTML;
        main.setAttribute("data-live-refreshed", String(Date.now()));
      })
      .catch(function () {});
  }

  window.Podium = window.Podium || {};
  window.Podium.live = {subscribe: subscribe};

  // One subscription per page: the first element that asks for one.
  var element = document.querySelector("[data-live-events]");
  if (element && element.getAttribute("data-live-mode") !== "custom") {
    subscribe(element.getAttribute("data-live-events"), element.getAttribute("data-live-version"), {
      standings: function () { refreshPage(element); },
      state: function (state) { document.documentElement.setAttribute("data-live-state", state); }
    });
  }
})();
