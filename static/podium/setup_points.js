/* Formula D, league, rally and rally-championship set-up pages (templates/web/setup/
   championship.html, league.html, rally.html, rally_championship.html): progressive
   enhancement of plain forms that work without it.
   - the points table of the chosen preset, and the typed one, shown as a table;
   - [data-when=advanced] groups folded away under the basic rule set, car builds shown with
     own_car_build; rule boxes still at the old set's default move to the new one's;
   - a race's "another board" box only when that is chosen;
   - the drivers entered in a race as toggles of the drivers' names. */
(function () {
  "use strict";
  var form = document.querySelector("form[data-setup]");
  if (!form) return;
  var byName = function (name) { return form.elements.namedItem(name); };
  var defaultsEl = document.getElementById("rule-set-defaults");
  var setDefaults = defaultsEl ? JSON.parse(defaultsEl.textContent) : null;

  function numbers(text) {
    var parts = (text || "").split(/[,;\s]+/).filter(Boolean);
    return parts.every(function (p) { return /^[0-9]+$/.test(p); }) ? parts.map(Number) : [];
  }

  function showPoints() {
    var pick = byName("points");
    if (!pick) return;
    var custom = form.querySelector("[data-points-custom]");
    if (custom) custom.hidden = pick.value !== "custom";
    form.querySelectorAll("[data-points-table]").forEach(function (t) {
      t.hidden = t.getAttribute("data-points-table") !== pick.value;
    });
    var table = form.querySelector('[data-points-table="custom"]');
    var typed = byName("points-custom");
    if (table && typed && pick.value === "custom") {
      var values = numbers(typed.value);
      var head = table.querySelector("thead tr"), body = table.querySelector("tbody tr");
      [head, body].forEach(function (row) {
        while (row.children.length > 1) row.removeChild(row.lastChild);
      });
      values.forEach(function (v, i) {
        var th = document.createElement("th"); th.scope = "col"; th.textContent = String(i + 1); head.appendChild(th);
        var td = document.createElement("td"); td.textContent = String(v); body.appendChild(td);
      });
    }
  }

  var ruleSet = byName("rule_set");
  var shownSet = ruleSet ? ruleSet.value : "";
  function showRuleSet() {
    if (!ruleSet) return;
    var advanced = ruleSet.value === "advanced";
    form.querySelectorAll('[data-when="advanced"]').forEach(function (el) { el.hidden = !advanced; });
    var own = byName("rules-own_car_build");
    var builds = advanced && own && own.checked;
    form.querySelectorAll('[data-when="build"]').forEach(function (el) { el.hidden = !builds; });
    if (setDefaults && shownSet && shownSet !== ruleSet.value) {
      var before = setDefaults[shownSet] || {}, after = setDefaults[ruleSet.value] || {};
      Object.keys(after).forEach(function (key) {
        var box = byName("rules-" + key);
        if (box && String(before[key]) === box.value) box.value = String(after[key]);
        var holder = box && box.closest(".sbox");
        var shown = holder && holder.querySelector(".default");
        if (shown) shown.textContent = shown.textContent.replace(String(before[key]), String(after[key]));
        if (holder) holder.setAttribute("data-default", String(after[key]));
      });
    }
    shownSet = ruleSet.value;
  }

  function showBoards() {
    form.querySelectorAll('[data-row="races"]').forEach(function (row) {
      var pick = row.querySelector("select[name$=-circuit]");
      var other = row.querySelector("[data-other-board]");
      if (pick && other) other.hidden = pick.value !== "other";
    });
  }

  function driverNames() {
    var names = [];
    form.querySelectorAll("input[name^=drivers-][name$=-name]").forEach(function (input) {
      var name = input.value.trim();
      if (name && names.indexOf(name) < 0) names.push(name);
    });
    return names;
  }

  function entered(input) {
    return input.value.split(",").map(function (n) { return n.trim(); }).filter(Boolean);
  }

  function drawChips() {
    var names = driverNames();
    form.querySelectorAll('[data-row="races"] input[name$=-drivers]').forEach(function (input) {
      var holder = input.parentNode.parentNode.querySelector("[data-entry-chips]");
      if (!holder) {
        holder = document.createElement("div");
        holder.className = "entry-chips";
        holder.setAttribute("data-entry-chips", "");
        input.parentNode.parentNode.appendChild(holder);
      }
      holder.innerHTML = "";
      var chosen = entered(input).map(function (n) { return n.toLowerCase(); });
      names.forEach(function (name) {
        var chip = document.createElement("button");
        chip.type = "button";
        chip.className = "chip";
        chip.textContent = name;
        chip.setAttribute("aria-pressed", chosen.indexOf(name.toLowerCase()) >= 0 ? "true" : "false");
        chip.addEventListener("click", function () {
          var list = entered(input);
          var at = list.map(function (n) { return n.toLowerCase(); }).indexOf(name.toLowerCase());
          if (at >= 0) list.splice(at, 1); else list.push(name);
          input.value = list.join(", ");
          drawChips();
        });
        holder.appendChild(chip);
      });
    });
  }

  function refresh() { showPoints(); showRuleSet(); showBoards(); }
  form.addEventListener("change", refresh);
  form.addEventListener("input", function (event) {
    var name = event.target.name || "";
    if (name === "points-custom") showPoints();
    if (/^drivers-.*-name$/.test(name) || /^races-.*-drivers$/.test(name)) drawChips();
  });
  form.addEventListener("setup:rows", function () { refresh(); drawChips(); });
  refresh();
  drawChips();
})();
