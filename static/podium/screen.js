/* The big screen: rotate the slides, keep each one on screen without scrolling, and redraw
   them in place when the competition's stream announces new standings or a forecast. */
(function () {
  "use strict";
  var ROTATE_MS = 8000;
  document.documentElement.classList.add("js");
  var body = document.body;
  var holder = document.querySelector("[data-slides]");
  var dots = document.querySelector("[data-dots]");
  if (!holder) return;
  var index = 0;
  var timer = null;

  function slides() {
    // The forecast slot stays out of the rotation while it is empty.
    return Array.prototype.filter.call(holder.querySelectorAll(".slide"), function (slide) {
      var forecast = slide.querySelector("[data-forecast]");
      return !forecast || forecast.querySelector(".title") !== null;
    });
  }

  function fit(slide) {
    // Shrink the slide's type until it fits the screen (a long team name, many columns).
    var size = 100;
    slide.style.fontSize = "";
    while (size > 55 && (slide.scrollHeight > slide.clientHeight + 1 || slide.scrollWidth > slide.clientWidth + 1)) {
      size -= 5;
      slide.style.fontSize = size + "%";
    }
  }

  function show(next) {
    var all = slides();
    if (!all.length) return;
    index = (next + all.length) % all.length;
    all.forEach(function (slide, i) { slide.classList.toggle("active", i === index); });
    fit(all[index]);
    body.setAttribute("data-slide", all[index].getAttribute("data-slide"));
    if (dots) {
      dots.innerHTML = "";
      all.forEach(function (slide, i) {
        var dot = document.createElement("li");
        if (i === index) dot.className = "on";
        dots.appendChild(dot);
      });
    }
  }

  function rotate() {
    if (timer !== null) window.clearInterval(timer);
    timer = window.setInterval(function () { show(index + 1); }, ROTATE_MS);
  }

  function redraw() {
    var shown = body.getAttribute("data-slide");
    fetch(window.location.pathname + "?part=slides", {credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) return;
        holder.innerHTML = html;
        var all = slides();
        var keep = all.findIndex(function (slide) { return slide.getAttribute("data-slide") === shown; });
        show(keep < 0 ? 0 : keep);
        fillForecast();
        var fresh = holder.querySelector(".slides");
        body.setAttribute("data-live-version", fresh ? fresh.getAttribute("data-version") : "");
        holder.classList.remove("updated");
        void holder.offsetWidth;  // restart the highlight animation
        holder.classList.add("updated");
      })
      .catch(function () {});
  }

  function percent(probability) {
    var value = Math.round(probability * 1000) / 10;
    return (value % 1 === 0 ? value.toFixed(0) : value.toFixed(1)) + " %";
  }

  function fillForecast() {
    // The forecast API (API.md, "Forecasts"): the first entries of each title the slot names.
    var slot = holder.querySelector("[data-forecast-url]");
    if (!slot) return;
    fetch(slot.getAttribute("data-forecast-url"), {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (body) {
        if (!body || body.status !== "ready" || !body.titles) return;
        var parts = [];
        slot.querySelectorAll("template[data-title]").forEach(function (title) {
          var entries = (body.titles[title.getAttribute("data-title")] || []).filter(function (entry) {
            return entry.status !== "eliminated";
          }).slice(0, 5);
          if (!entries.length) return;
          var list = document.createElement("ol");
          list.className = "odds";
          entries.forEach(function (entry) {
            var item = document.createElement("li");
            var name = document.createElement("span");
            name.className = "name";
            name.textContent = entry.name;
            var bar = document.createElement("span");
            bar.className = "bar";
            bar.style.width = Math.max(1, Math.round(entry.probability * 100)) + "%";
            var value = document.createElement("span");
            value.className = "value";
            value.textContent = percent(entry.probability);
            item.append(name, bar, value);
            list.appendChild(item);
          });
          var heading = document.createElement("h3");
          heading.textContent = title.textContent;
          var block = document.createElement("div");
          block.className = "title";
          block.append(heading, list);
          parts.push(block);
        });
        slot.querySelectorAll(".title").forEach(function (old) { old.remove(); });
        parts.forEach(function (part) { slot.appendChild(part); });
        if (parts.length) show(index);  // the slide joins the rotation
      })
      .catch(function () {});
  }

  show(0);
  rotate();
  fillForecast();
  // For a remote or a test: which slides there are, and show one (the rotation goes on from it).
  window.Podium = window.Podium || {};
  window.Podium.screen = {
    count: function () { return slides().length; },
    show: function (i) { show(i); rotate(); }
  };
  window.addEventListener("resize", function () { var all = slides(); if (all[index]) fit(all[index]); });

  if (window.Podium && window.Podium.live) {
    window.Podium.live.subscribe(body.getAttribute("data-live-events"), body.getAttribute("data-live-version"), {
      standings: redraw,
      forecast: redraw,
      state: function (state) { body.setAttribute("data-live-state", state); }
    });
  }
})();
