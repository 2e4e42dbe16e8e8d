/* The forecast section: a tap on a reason's button shows it (hover and focus need no script);
   Escape or a tap elsewhere hides it. */
(function () {
  "use strict";
  function close(except) {
    document.querySelectorAll(".fc-tip.open").forEach(function (tip) {
      if (tip !== except) {
        tip.classList.remove("open");
        tip.querySelector(".fc-tip-button").setAttribute("aria-expanded", "false");
      }
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest(".fc-tip-button") : null;
    if (!button) { close(null); return; }
    var tip = button.parentElement;
    var open = !tip.classList.contains("open");
    close(tip);
    tip.classList.toggle("open", open);
    button.setAttribute("aria-expanded", open ? "true" : "false");
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { close(null); }
  });
})();
