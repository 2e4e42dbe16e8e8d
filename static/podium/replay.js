/* Podium replays: plays a simulated event drawn by the server (tournament/web/replay*.py).
 *
 * Every <figure data-replay> holds its data as JSON (<script type="application/json">) and a
 * hidden row of controls: Step back, Play/Pause, Step forward and a round slider. Without
 * JavaScript the figure shows the start and the table below it tells the whole story.
 *   data-replay="board"     Flamme Rouge: rider tokens (g.rd) move between the blocks of squares.
 *   data-replay="progress"  Formula D / Rallyman: car tokens (g.car) slide along their rows.
 * data-speed is the pause between two rounds when playing, in ms, read at every step (a test may
 * set it low). Each token's data-sq / data-lane (board) or data-d (progress) says where it is.
 */
(function () {
  "use strict";

  function format(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, key) { return String(values[key]); });
  }

  function fillList(list, lines) {
    list.textContent = "";
    (lines || []).forEach(function (line) {
      var li = document.createElement("li");
      li.textContent = line;
      list.appendChild(li);
    });
  }

  function boardView(root, data) {
    var g = data.geometry;
    var blocks = root.querySelectorAll("svg.fr-block");
    var tokens = [];
    root.querySelectorAll("g.rd").forEach(function (t) { tokens[Number(t.getAttribute("data-r"))] = t; });
    return function (round) {
      var at = round.at, fx = round.fx || [];
      tokens.forEach(function (token, i) {
        var square = at[2 * i], lane = at[2 * i + 1];
        token.classList.toggle("slip", (fx[i] & 1) === 1);
        token.classList.toggle("exh", (fx[i] & 2) === 2);
        token.classList.toggle("in", (fx[i] & 4) === 4);
        token.setAttribute("data-sq", String(square));
        token.setAttribute("data-lane", String(lane));
        if (!square) {
          token.classList.add("gone");  // left the track (FR-44): listed under "Crossed the line"
          return;
        }
        token.classList.remove("gone");
        var block = blocks[Math.min(Math.floor((square - 1) / g.block), blocks.length - 1)];
        var height = Number(block.getAttribute("data-lanes"));
        var x = ((square - 1) % g.block) * g.cell + g.cell / 2;
        var y = g.top + (height - lane) * g.lane + g.lane / 2;
        if (token.parentNode !== block) block.appendChild(token);
        token.setAttribute("transform", "translate(" + x + " " + y + ")");
      });
    };
  }

  function progressView(root) {
    var cars = [];
    root.querySelectorAll("g.car").forEach(function (c) { cars[Number(c.getAttribute("data-c"))] = c; });
    return function (round) {
      cars.forEach(function (car, i) {
        var pct = round.at[i], state = (round.st || [])[i] || "";
        car.setAttribute("data-d", String(pct));
        car.setAttribute("class", "car k" + (i % 6) + (state ? " " + state : ""));
        car.querySelectorAll("[data-x]").forEach(function (el) {
          el.setAttribute(el.getAttribute("data-x"), pct + "%");
        });
        var note = car.querySelector(".note");
        var lap = (round.lap || [])[i];
        if (note) note.textContent = lap ? " · " + lap : "";
      });
    };
  }

  function Player(root) {
    var data = JSON.parse(root.querySelector('script[type="application/json"]').textContent);
    var rounds = data.rounds, last = rounds.length - 1, text = data.text;
    var controls = root.querySelector(".replay-controls");
    var play = controls.querySelector('[data-act="play"]');
    var seek = controls.querySelector('[data-act="seek"]');
    var output = controls.querySelector(".replay-round");
    var status = root.querySelector(".replay-status");
    var events = root.querySelector(".replay-events");
    var done = root.querySelector(".replay-done");
    var draw = data.kind === "board" ? boardView(root, data) : progressView(root);
    var current = 0, timer = null;

    function show(n) {
      current = Math.max(0, Math.min(last, n));
      var round = rounds[current];
      draw(round);
      var label = current ? format(text.round, {n: round.n, total: rounds[last].n}) : text.start;
      seek.value = String(current);
      seek.setAttribute("aria-valuetext", label);
      output.textContent = label;
      if (status) status.textContent = label;
      if (events) fillList(events, round.ev);
      if (done) {
        done.hidden = !(round.done && round.done.length);
        fillList(done.querySelector("ol"), round.done);
      }
      root.setAttribute("data-round", String(current));
    }

    function stop() {
      if (timer !== null) window.clearTimeout(timer);
      timer = null;
      play.textContent = text.play;
      play.setAttribute("aria-pressed", "false");
    }

    function tick() {
      if (current >= last) { stop(); return; }
      show(current + 1);
      timer = window.setTimeout(tick, Number(root.getAttribute("data-speed")) || 700);
    }

    function start() {
      if (current >= last) show(0);  // Play at the finish starts again
      play.textContent = text.pause;
      play.setAttribute("aria-pressed", "true");
      timer = window.setTimeout(tick, Number(root.getAttribute("data-speed")) || 700);
    }

    controls.addEventListener("click", function (event) {
      var act = event.target.closest("[data-act]");
      if (!act) return;
      var what = act.getAttribute("data-act");
      if (what === "play") { if (timer === null) start(); else stop(); }
      else if (what === "back") { stop(); show(current - 1); }
      else if (what === "forward") { stop(); show(current + 1); }
    });
    seek.addEventListener("input", function () { stop(); show(Number(seek.value)); });
    controls.hidden = false;
    show(0);
  }

  document.querySelectorAll("figure[data-replay]").forEach(function (root) { Player(root); });
})();
