/* Podium: progressive enhancement only; every page works without JavaScript. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // <select data-autosubmit> (the "after stage" selector) submits its form when changed.
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el.matches && el.matches("select[data-autosubmit]") && el.form) el.form.submit();
  });

  // An element with data-poll="URL" takes the content of the fragment at URL every second until
  // the fragment no longer asks to be polled (the stage is resolved or failed). The element
  // itself stays, so an aria-live region announces the change. After a minute the pace drops to
  // every five seconds: a stage waiting for a busy worker need not hammer the server.
  function poll(el, attempt) {
    var delay = attempt < 60 ? 1000 : 5000;
    window.setTimeout(function () {
      fetch(el.getAttribute("data-poll"), {credentials: "same-origin", headers: {"Accept": "text/html"}})
        .then(function (response) {
          if (!response.ok) throw new Error(String(response.status));
          return response.text();
        })
        .then(function (html) {
          var template = document.createElement("template");
          template.innerHTML = html.trim();
          var fresh = template.content.firstElementChild;
          if (!fresh) return;
          el.innerHTML = fresh.innerHTML;
          if (fresh.hasAttribute("data-poll")) poll(el, attempt + 1);
          else {
            el.removeAttribute("data-poll");
            // The event is resolved (or failed): a "being resolved" banner would now be wrong.
            document.querySelectorAll(".messages .resolving").forEach(function (li) { li.remove(); });
          }
        })
        .catch(function () { poll(el, attempt + 1); });  // a network hiccup: keep trying
    }, delay);
  }
  document.querySelectorAll("[data-poll]").forEach(function (el) { poll(el, 0); });

  // A table box that scrolls sideways (tables.py, issue #16) says so: .more-left / .more-right
  // shade the sticky columns' edges, and the box joins the tab order, named by its caption, so
  // that a keyboard can scroll it too.
  function scrollCue(box) {
    var more = box.scrollWidth - box.clientWidth > 1;
    box.classList.toggle("scrolls", more);
    box.classList.toggle("more-left", more && box.scrollLeft > 1);
    box.classList.toggle("more-right", more && box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
    if (more && !box.hasAttribute("tabindex")) {
      var caption = box.querySelector("caption");
      box.setAttribute("tabindex", "0");
      box.setAttribute("role", "region");
      if (caption) box.setAttribute("aria-label", caption.textContent.trim());
    } else if (!more && box.getAttribute("role") === "region") {
      box.removeAttribute("tabindex");
      box.removeAttribute("role");
      box.removeAttribute("aria-label");
    }
  }
  var boxes = document.querySelectorAll(".table-wrap");
  var observer = window.ResizeObserver ? new ResizeObserver(function (entries) {
    entries.forEach(function (entry) { scrollCue(entry.target); });
  }) : null;
  boxes.forEach(function (box) {
    scrollCue(box);
    box.addEventListener("scroll", function () { scrollCue(box); }, {passive: true});
    if (observer) observer.observe(box);
  });
})();
