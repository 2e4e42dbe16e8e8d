/* Board entry: the times are recomputed by the server (the engine's own code) whenever a box
   changes, and shown without a reload. Without JavaScript "Compute the times" does the same. */
(function () {
  "use strict";
  var form = document.querySelector("form[data-board-preview]");
  var target = document.getElementById("board-preview");
  if (!form || !target || !window.fetch) return;
  var timer = null;
  function refresh() {
    var data = new FormData(form);
    data.set("action", "preview");
    // form.action would be the buttons named "action", not the attribute.
    fetch(form.getAttribute("action") || location.href, {
      method: "POST", body: data, credentials: "same-origin",
      headers: {"X-Podium-Preview": "1", "Accept": "text/html"}
    }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.text();
    }).then(function (html) { target.innerHTML = html; }).catch(function () {});
  }
  form.addEventListener("change", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(refresh, 250);
  });
})();
