/* Run panels: while a simulation is under way, reload the page every few seconds (at most a
   minute) so its results show without a manual refresh. Without JavaScript the panel offers a
   "Refresh" link. */
(function () {
  "use strict";
  var key = "podium-run-reloads:" + location.pathname;
  if (!document.querySelector("[data-run-pending]")) { sessionStorage.removeItem(key); return; }
  var count = Number(sessionStorage.getItem(key) || "0");
  if (count >= 20) return;
  window.setTimeout(function () {
    sessionStorage.setItem(key, String(count + 1));
    location.reload();
  }, 3000);
})();
