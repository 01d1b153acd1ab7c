// Tidemark console: the create form's carrier suggestion, the last free days'
// countdowns and the live regions. The page works without it.
"use strict";

(function () {
  function relative(ms) {
    const span = Math.abs(ms) / 1000;
    if (span < 60) { return "just now"; }
    const days = Math.floor(span / 86400);
    const hours = Math.floor((span % 86400) / 3600);
    const minutes = Math.floor((span % 3600) / 60);
    const amount = days > 0 ? `${days} d ${hours} h` : hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`;
    return ms >= 0 ? `in ${amount}` : `${amount} ago`;
  }

  function tick() {
    document.querySelectorAll("time.countdown").forEach(function (time) {
      const left = Date.parse(time.getAttribute("datetime")) - Date.now();
      const span = time.querySelector("[data-left]");
      if (span && !Number.isNaN(left)) {
        span.textContent = relative(left);
        time.classList.toggle("passed", left < 0);
        time.classList.toggle("soon", left >= 0 && left <= 2 * 86400 * 1000);
      }
    });
  }

  function suggest(form) {
    const number = form.querySelector("#request_number");
    const scac = form.querySelector("#scac");
    const type = form.querySelector("#request_type");
    const out = form.querySelector("#suggestion");
    let timer = null;
    let asked = 0;
    number.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(async function () {
        const text = number.value.trim();
        const mine = ++asked;
        if (text.length < 4) { out.textContent = ""; return; }
        let answer;
        try {
          const response = await fetch(`/console/infer?number=${encodeURIComponent(text)}`,
            { credentials: "same-origin", headers: { Accept: "application/json" } });
          if (!response.ok) { out.textContent = ""; return; }
          answer = await response.json();
        } catch (_) { return; }
        if (mine !== asked) { return; }
        out.textContent = "";
        if (answer.sandbox_scac) {
          out.append(document.createTextNode(
            `A sandbox number: tracked with the simulated line ${answer.sandbox_scac}.`));
          if (!scac.value) { scac.value = answer.sandbox_scac; }
          return;
        }
        const line = answer.shipping_line;
        // infer-number says `booking`; a tracking request's type is `booking_number`.
        const kind = answer.number_type === "booking" ? "booking_number" : answer.number_type;
        const valid = answer.validation;
        let words = kind ? `Looks like a ${kind.replace(/_/g, " ")}` : "Type not recognised";
        if (valid && valid.is_valid === false && valid.reason) { words += ` (${valid.reason})`; }
        if (line && line.selected) {
          words += ` of ${line.selected.name} (${line.selected.scac}), confidence ${Math.round(line.selected.confidence * 100)} %, ${line.decision.replace(/_/g, " ")}.`;
        } else if (line && line.candidates && line.candidates.length) {
          words += `; perhaps ${line.candidates.slice(0, 3).map(function (c) { return c.scac; }).join(", ")}.`;
        } else {
          words += "; no carrier suggested.";
        }
        out.append(document.createTextNode(words));
        if (line && line.selected) {
          const use = document.createElement("button");
          use.type = "button";
          use.textContent = `Use ${line.selected.scac}`;
          use.addEventListener("click", function () {
            scac.value = line.selected.scac;
            if (kind && type.querySelector(`option[value="${kind}"]`)) { type.value = kind; }
          });
          out.append(use);
          if (!scac.value) {
            scac.value = line.selected.scac;
            if (kind && type.querySelector(`option[value="${kind}"]`)) { type.value = kind; }
          }
        }
      }, 250);
    });
  }

  // Live pages: the regions marked `data-live` are read again from the page's own URL every
  // LIVE seconds while the tab is visible, and replaced only where they changed (no reload,
  // no flicker), never while the cursor is in one.
  const LIVE = 10;

  function live() {
    if (!document.querySelector("[data-live]")) { return; }
    let busy = false;
    setInterval(async function () {
      if (document.hidden || busy) { return; }
      busy = true;
      try {
        const response = await fetch(window.location.href,
          { credentials: "same-origin", headers: { Accept: "text/html" } });
        if (!response.ok || response.redirected) { return; }
        const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
        document.querySelectorAll("[data-live]").forEach(function (region) {
          const now = region.id && fresh.getElementById(region.id);
          if (now && now.innerHTML !== region.innerHTML && !region.contains(document.activeElement)) {
            region.innerHTML = now.innerHTML;
          }
        });
        tick();
      } catch (_) {
        // The next round tries again.
      } finally {
        busy = false;
      }
    }, LIVE * 1000);
  }

  document.addEventListener("DOMContentLoaded", function () {
    tick();
    setInterval(tick, 30000);
    live();
    const form = document.getElementById("create");
    if (form) { suggest(form); }
  });
})();
