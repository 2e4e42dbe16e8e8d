/* Set-up pages: progressive enhancement only. Every button here also works as a plain POST
   (name="action"): without JavaScript the server redraws the form with the change.

   Shared (any set-up page):
   - <button data-preset='{"rules-x": "3"}'>: fills the named boxes (checkboxes: "on" ticks).
   - <template data-row-template="P"> + <div data-rows="P"> + <button data-add-row="P">: a new row
     from the template, "__i__" replaced by the next free index; <button data-remove-row> removes
     its closest [data-row]. Both fire "setup:rows" on the form.
   - the error summary (#form-errors) takes the focus after a refused submit.
   Grand Tour (templates/web/setup/tour.html): course profiles, live preview, stacks by click,
   Specialist limits, riders' names from the player. */
(function () {
  "use strict";
  var form = document.querySelector("form[data-setup]");
  if (!form) return;

  function setValue(el, value) {
    if (el.type === "checkbox") el.checked = value === "on";
    else el.value = value;
    el.dispatchEvent(new Event("change", {bubbles: true}));
  }

  function live(text) {
    var region = document.getElementById("setup-live");
    if (region) region.textContent = text;
  }

  form.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) return;
    if (button.hasAttribute("data-preset")) {
      event.preventDefault();
      var values = JSON.parse(button.getAttribute("data-preset"));
      Object.keys(values).forEach(function (name) {
        var el = form.elements.namedItem(name);
        if (el && el.nodeType === 1) setValue(el, values[name]);
      });
      live(button.textContent.trim() + " ✓");
    } else if (button.hasAttribute("data-add-row")) {
      event.preventDefault();
      addRow(button.getAttribute("data-add-row"));
    } else if (button.hasAttribute("data-remove-row")) {
      event.preventDefault();
      var row = button.closest("[data-row]");
      if (row) row.remove();
      form.dispatchEvent(new CustomEvent("setup:rows"));
    }
  });

  function nextIndex(prefix) {
    var used = -1;
    var start = prefix + "-";
    Array.prototype.forEach.call(form.elements, function (el) {
      if (el.name && el.name.indexOf(start) === 0) {
        var n = parseInt(el.name.slice(start.length), 10);
        if (n > used) used = n;
      }
    });
    return used + 1;
  }

  function addRow(prefix) {
    var template = document.querySelector('template[data-row-template="' + prefix + '"]');
    var rows = document.querySelector('[data-rows="' + prefix + '"]');
    if (!template || !rows) return null;
    var index = nextIndex(prefix);
    var holder = document.createElement("div");
    var placeholder = new RegExp(template.getAttribute("data-placeholder") || "__i__", "g");
    holder.innerHTML = template.innerHTML.replace(placeholder, String(index)).replace(/__n__/g, String(index + 1));
    var row = holder.firstElementChild;
    rows.appendChild(row);
    form.dispatchEvent(new CustomEvent("setup:rows", {detail: {row: row}}));
    var first = row.querySelector("input:not([type=hidden]),select");
    if (first && !row.hasAttribute("data-no-focus")) first.focus();
    return row;
  }
  form.setupAddRow = addRow;

  var summary = document.getElementById("form-errors");
  if (summary) summary.focus();

  /* --- Grand Tour ------------------------------------------------------------------------- */
  var catalogueEl = document.getElementById("course-catalogue");
  if (!catalogueEl) return;
  var catalogue = JSON.parse(catalogueEl.textContent);
  var previewUrl = form.getAttribute("data-preview-url");
  var csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  var words = JSON.parse(document.getElementById("setup-words").textContent);
  var NS = "http://www.w3.org/2000/svg";

  // The same drawing as tournament/tours/setup_page.py's profile_svg (the page without JS).
  function drawProfile(holder, profile, stacks) {
    holder.innerHTML = "";
    if (!profile || !profile.length) return;
    var w = 6, base = 34, step = 3, level = 0, levels = [];
    profile.forEach(function (sq) {
      if (sq.terrain === "ascent") level += 1;
      levels.push(level);
      if (sq.terrain === "descent") level -= 1;
    });
    var low = Math.min.apply(null, levels.concat([0])), high = Math.max.apply(null, levels.concat([0]));
    var height = base + (high - low) * step + 14;
    var svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 " + profile.length * w + " " + height);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", words.profile.replace("%(n)s", profile.length));
    var finishDrawn = false;
    profile.forEach(function (sq, i) {
      var h = 16 + (levels[i] - low) * step;
      var rect = document.createElementNS(NS, "rect");
      rect.setAttribute("x", i * w);
      rect.setAttribute("y", height - h);
      rect.setAttribute("width", w - 0.6);
      rect.setAttribute("height", h);
      rect.setAttribute("class", "sq t-" + sq.terrain);
      rect.setAttribute("data-square", i + 1);
      var title = document.createElementNS(NS, "title");
      title.textContent = words.square.replace("%(n)s", i + 1) + " · " + (words.terrain[sq.terrain] || sq.terrain);
      rect.appendChild(title);
      svg.appendChild(rect);
      if (sq.past_line && !finishDrawn) {
        finishDrawn = true;
        var line = document.createElementNS(NS, "line");
        line.setAttribute("x1", i * w - 0.3); line.setAttribute("x2", i * w - 0.3);
        line.setAttribute("y1", 0); line.setAttribute("y2", height);
        line.setAttribute("class", "finish-line");
        svg.appendChild(line);
      }
    });
    (stacks || []).forEach(function (stack) {
      var i = stack.square - 1;
      if (i < 0 || i >= profile.length) return;
      var c = document.createElementNS(NS, "circle");
      var h = 16 + (levels[i] - low) * step;
      c.setAttribute("cx", i * w + w / 2);
      c.setAttribute("cy", Math.max(height - h - 5, 4));
      c.setAttribute("r", stack.type === "major" ? 3.4 : 2.4);
      c.setAttribute("class", "stack-mark stack-" + stack.side);
      svg.appendChild(c);
    });
    holder.appendChild(svg);
  }

  function stageRows() { return Array.prototype.slice.call(form.querySelectorAll("[data-stage-row]")); }

  function stacksOf(row) {
    return Array.prototype.slice.call(row.querySelectorAll("[data-stack-row]")).map(function (s) {
      return {
        type: s.querySelector("[name$=-type]").value,
        side: s.querySelector("[name$=-side]").value,
        square: parseInt(s.querySelector("[name$=-square]").value, 10)
      };
    }).filter(function (s) { return s.square > 0; });
  }

  function showCourse(row) {
    var pick = row.querySelector("[name$=-pick]");
    var courseBox = row.querySelector("[data-custom-course]");
    var info = row.querySelector("[data-course-info]");
    var holder = row.querySelector("[data-profile]");
    var error = row.querySelector("[data-course-error]");
    var custom = pick.value === "custom";
    if (courseBox) courseBox.hidden = !custom;
    if (error) error.textContent = "";
    var entry = catalogue[pick.value];
    if (entry) {
      row.profile = entry.profile;
      drawProfile(holder, entry.profile, stacksOf(row));
      info.textContent = words.info.replace("%(n)s", entry.profile.length).replace("%(finish)s", words.finish[entry.finish]);
      var name = row.querySelector("[name$=-name]");
      if (name && !name.value) name.placeholder = entry.name;
    } else if (custom) {
      preview(row);
    } else {
      row.profile = null;
      holder.innerHTML = "";
      info.textContent = pick.value === "none" ? words.nocourse : "";
    }
  }

  var timers = new WeakMap();
  function preview(row) {
    var input = row.querySelector("[data-custom-course] input");
    var holder = row.querySelector("[data-profile]");
    var info = row.querySelector("[data-course-info]");
    var error = row.querySelector("[data-course-error]");
    var text = input.value.trim();
    if (!text) { holder.innerHTML = ""; info.textContent = ""; row.profile = null; return; }
    fetch(previewUrl, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf, "Accept": "application/json"},
      body: JSON.stringify({course: text})
    }).then(function (response) {
      return response.json().then(function (data) { return {ok: response.ok, data: data}; });
    }).then(function (answer) {
      if (input.value.trim() !== text) return;  // typed on meanwhile
      if (answer.ok) {
        error.textContent = "";
        input.removeAttribute("aria-invalid");
        row.profile = answer.data.profile;
        drawProfile(holder, answer.data.profile, stacksOf(row));
        info.textContent = words.info.replace("%(n)s", answer.data.profile.length).replace("%(finish)s", words.finish[answer.data.finish]);
      } else {
        var problems = answer.data.course || [answer.data.detail || ""];
        error.textContent = problems.join(" ");
        input.setAttribute("aria-invalid", "true");
        holder.innerHTML = ""; info.textContent = ""; row.profile = null;
      }
    }).catch(function () { /* offline: the server checks the course on submit */ });
  }

  form.addEventListener("input", function (event) {
    var el = event.target;
    var row = el.closest("[data-stage-row]");
    if (row && el.closest("[data-custom-course]")) {
      clearTimeout(timers.get(row));
      timers.set(row, setTimeout(function () { preview(row); }, 300));
    }
    if (el.name && /^teams-\d+-player$/.test(el.name)) riderPlaceholders(el.closest("[data-team-row]"));
  });

  form.addEventListener("change", function (event) {
    var el = event.target;
    var row = el.closest("[data-stage-row]");
    if (row && /-pick$/.test(el.name)) showCourse(row);
    else if (row && el.closest("[data-stack-row]") && row.profile) drawProfile(row.querySelector("[data-profile]"), row.profile, stacksOf(row));
    if (/-specialist$/.test(el.name || "")) specialistLimits();
  });

  // A click on a square of the profile places a stack there (a free stack row, or a new one).
  form.addEventListener("click", function (event) {
    var sq = event.target.closest && event.target.closest("[data-square]");
    if (!sq) return;
    var row = sq.closest("[data-stage-row]");
    var number = sq.getAttribute("data-square");
    var free = Array.prototype.slice.call(row.querySelectorAll("[data-stack-row]")).filter(function (s) {
      return !s.querySelector("[name$=-square]").value;
    })[0];
    if (!free) free = addRow(row.getAttribute("data-stacks-prefix"));
    if (!free) return;
    var box = free.querySelector("[name$=-square]");
    box.value = number;
    box.dispatchEvent(new Event("change", {bubbles: true}));
    free.querySelector("select").focus();
    live(words.placed.replace("%(n)s", number));
  });

  function riderPlaceholders(team) {
    if (!team) return;
    var player = team.querySelector("[name$=-player]").value.trim();
    var fallback = team.querySelector("[name$=-name]");
    var who = player || fallback.value.trim() || fallback.placeholder;
    team.querySelector("[name$=-riders-0-name]").placeholder = who + " R";
    team.querySelector("[name$=-riders-1-name]").placeholder = who + " S";
  }

  // GT-1.3: with 2 teams each Specialist exists twice; with 3 or more, once.
  function specialistLimits() {
    var teams = form.querySelectorAll("[data-team-row]");
    var copies = teams.length === 2 ? 2 : 1;
    var selects = form.querySelectorAll("select[name$=-specialist]");
    var count = {};
    Array.prototype.forEach.call(selects, function (s) { if (s.value) count[s.value] = (count[s.value] || 0) + 1; });
    Array.prototype.forEach.call(selects, function (s) {
      var note = s.closest(".sbox").querySelector(".specialist-clash");
      if (!note) {
        note = document.createElement("p");
        note.className = "specialist-clash";
        note.setAttribute("aria-live", "polite");
        s.closest(".sbox").appendChild(note);
      }
      note.textContent = s.value && count[s.value] > copies ? words.clash.replace("%(copies)s", copies).replace("%(teams)s", teams.length) : "";
    });
  }

  // Rows keep their input names (the server reads any numbering) but are shown as 1..n.
  function renumberLabels(selector) {
    Array.prototype.forEach.call(form.querySelectorAll(selector), function (row, k) {
      row.querySelectorAll("legend, [data-remove-row]").forEach(function (el) {
        if (el.closest(selector) !== row || el.closest("[data-stack-row]")) return;
        el.childNodes.forEach(function (node) {
          if (node.nodeType === 3) node.textContent = node.textContent.replace(/\d+/, String(k + 1));
        });
      });
    });
  }

  form.addEventListener("setup:rows", function (event) {
    renumberLabels("[data-stage-row]");
    renumberLabels("[data-team-row]");
    var row = event.detail && event.detail.row;
    if (row && row.hasAttribute("data-stage-row")) showCourse(row);
    if (row && row.hasAttribute("data-team-row")) riderPlaceholders(row);
    specialistLimits();
  });
  stageRows().forEach(showCourse);
  Array.prototype.forEach.call(form.querySelectorAll("[data-team-row]"), riderPlaceholders);
  specialistLimits();
})();
