// The dashboard's only script: keeps the cards current from /v1/events (Server-Sent Events)
// and the "… ago" times counting. The page is complete without it. Cards are swapped for the
// server's own HTML (GET /card), so escaping happens in one place, on the server.
"use strict";
(() => {
  const root = document.documentElement;
  const announcer = document.getElementById("announcer");
  const cards = () => Array.from(document.querySelectorAll("article.card[data-urn]"));
  const urns = Array.from(new Set(cards().map((card) => card.dataset.urn)));
  let updates = 0;

  // "42 s", "17 min", "3 h 5 min", "2 d 4 h": as the server writes them.
  const age = (seconds) => {
    const s = Math.max(0, Math.round(seconds));
    if (s < 60) return `${s} s`;
    if (s < 3600) return `${Math.floor(s / 60)} min`;
    if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
    return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  };
  const tick = () => {
    for (const time of document.querySelectorAll("time[data-ago]")) {
      const at = Date.parse(time.dateTime);
      if (!Number.isNaN(at)) time.textContent = `${age((Date.now() - at) / 1000)} ago`;
    }
  };
  // The page may have been made a few seconds ago (the server reuses it briefly).
  tick();
  setInterval(tick, 30000);

  if (urns.length === 0 || !("EventSource" in window)) return;

  // The map's marker for a card (or a part of one) follows its status.
  const updateMarkers = (card) => {
    for (const element of [card, ...card.querySelectorAll("[data-status][id]")]) {
      const marker = document.querySelector(`.map a.marker[data-card="${element.id}"]`);
      const status = element.querySelector(".status");
      if (!marker || !status) continue;
      const tone = Array.from(status.classList).find((name) => name.startsWith("tone-")) || "tone-neutral";
      const title = element.querySelector("h2, h3");
      const label = `${title ? title.textContent : ""}: ${element.dataset.status}`;
      marker.setAttribute("class", `marker ${tone}`);
      marker.dataset.status = element.dataset.status;
      marker.setAttribute("aria-label", label);
      const tooltip = marker.querySelector("title");
      if (tooltip) tooltip.textContent = label;
      const use = marker.querySelector("use");
      if (use) use.setAttribute("href", `#shape-${tone.slice(5)}`);
    }
  };

  const refresh = async (urn) => {
    const targets = cards().filter((card) => card.dataset.urn === urn);
    // A URN several sources answer (pass:all of two states) has a card per answer, in order.
    for (const [answer, old] of targets.entries()) {
      const response = await fetch(`/card?urn=${encodeURIComponent(urn)}&id=${encodeURIComponent(old.id)}&answer=${answer}`, { cache: "no-store" });
      if (!response.ok) continue;
      const template = document.createElement("template");
      template.innerHTML = await response.text();
      const fresh = template.content.querySelector("article.card");
      if (!fresh || !old.isConnected) continue;
      old.replaceWith(fresh);
      fresh.classList.add("card--changed");
      setTimeout(() => fresh.classList.remove("card--changed"), 5000);
      updateMarkers(fresh);
      const title = fresh.querySelector("h2");
      const status = fresh.querySelector(".status__word");
      announcer.textContent = `${title ? title.textContent : urn}${status ? ` is now ${status.textContent}` : " changed"}.`;
      updates += 1;
      root.dataset.updates = String(updates);
    }
  };

  const source = new EventSource(`/v1/events?${urns.map((urn) => `urn=${encodeURIComponent(urn)}`).join("&")}`);
  const liveText = document.querySelector("[data-live-text]");
  source.addEventListener("open", () => {
    root.dataset.live = "open";
    if (liveText) liveText.textContent = "live";
  });
  source.addEventListener("error", () => {
    root.dataset.live = "retrying";
    if (liveText) liveText.textContent = "reconnecting…";
  });
  const parse = (message) => {
    try { return JSON.parse(message.data); } catch { return null; }
  };
  source.addEventListener("change", (message) => {
    const event = parse(message);
    if (event && typeof event.urn === "string") refresh(event.urn);
  });
  // A change between the page being made and the stream opening arrives as the stream's
  // first state: refresh the cards that no longer match it.
  source.addEventListener("initial", (message) => {
    const event = parse(message);
    if (!event || typeof event.urn !== "string") return;
    if (cards().some((card) => card.dataset.urn === event.urn && card.dataset.state !== event.after)) refresh(event.urn);
  });
})();
