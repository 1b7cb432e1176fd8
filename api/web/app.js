/* piki web page: photo → hand + bid advice; live game with the webcam; review of a hand.
   Plain JavaScript, no build step. Talks to the JSON API of the same server (/v1/...). */
"use strict";

// ------------------------------------------------------------------ texts (en / pl)
const TEXTS = {
  en: {
    tab_photo: "Photo", tab_live: "Live game", tab_review: "Review", language: "Language",
    settings: "Settings", token: "Access token", save: "Save",
    photo_title: "Photo of your hand",
    photo_help: "Take or upload a photo of your cards; the boxes show what was recognised.",
    choose_photo: "Take / choose a photo", your_hand: "Your hand", on_table: "On the table",
    bid_advice: "Bid advice", dealer: "Dealer", my_seat: "My seat", hand_cards: "My cards",
    bids_so_far: "Bids so far", score: "Score", get_advice: "Get advice",
    live_title: "Live game", new_game: "New game", game_id: "Game", hand_no: "Hand",
    cam_start: "Start camera", cam_stop: "Stop camera", by_hand: "Type it in", bid: "Bid",
    add_bid: "Add bid", card: "Card", add_card: "Add card", undo: "Undo", advice: "Advice",
    next_hand: "Next hand", set_hand: "Set my cards", review_title: "Review a hand",
    review_help: "Upload a hand record (piki-hand/1 JSON) or paste it below.",
    choose_record: "Choose a record", review_seat: "Seat", all_seats: "all", review_run: "Review",
    trick: "Trick", leader: "Lead", winner: "Winner",
    footer: "piki — Spades coach for real card tables",
    scanning: "Recognising cards…", scan_done: "{n} cards recognised.", no_cards: "No cards recognised.",
    thinking: "Thinking…", advice_bid: "Bid {bid}", advice_card: "Play {card}",
    bid_turn_first: "It is {seat}'s turn to bid, not yours: enter the bids made before yours under “Bids so far” (the dealer bids first).",
    bid_over: "All four bids are in: there is no bid left to advise.",
    expected_points: "expected points", expected_tricks: "expected tricks", win_chance: "chance to win the game", make_chance: "contract makes", nil_chance: "Chance that nil makes it: {p}%",
    cam_denied: "Camera permission was denied. Allow the camera for this site in the browser settings and press “Start camera” again — or type the bids and cards below.",
    cam_none: "No camera was found on this device. Connect a camera, or type the bids and cards below.",
    cam_busy: "The camera is being used by another application. Close it and try again.",
    cam_unsupported: "This browser cannot use a camera here (a camera needs HTTPS or localhost). You can still type the bids and cards below.",
    cam_other: "The camera could not be started: {msg}",
    cam_on: "Camera on: frames are being analysed.",
    cam_low_res: "The camera gives {w}×{h} pixels: cards far from it may be missed. A camera that gives 1280×720 or more, or this one closer to the table, reads many more of them.",
    phase: "Phase", bidding: "bidding", play: "play", done: "hand over", to_act: "To act",
    you: "you", bids: "Bids", tricks: "Tricks", current_trick: "Trick in progress", played: "Played",
    advice_for_other: "For {seat}, whose turn it is (not yours):", your_turn: "Your turn!", question: "Please confirm", confirm: "Yes, record it", reject: "No",
    confirm_card: "Record {card}", created: "Game created.", saved: "Saved.",
    review_running: "Analysing the decisions…", review_unavailable: "The analysis is not available: {msg}",
    bad_json: "This is not valid JSON: {msg}", mistake_cost: "−{cost} pts", tricks_lost: "−{n} tricks",
    judged_on: "± {err} pts over {n} simulated deals", best: "best: {card}",
    blind_nil: "blind nil", nil_bid: "0 (nil)",
    chart_title: "Tricks taken during the hand", final_score: "Score of the hand",
    trick_closed: "Trick closed.", proposed: "Seen {card} ({frames}/{needed})…", confirmed: "{seat} played {card}.",
    waiting: "Waiting for the table to clear.", game_over: "Game over. Winner: {w}",
    hand_points: "hand", total: "total", bags: "bags", not_seen: "—", game_score: "Score before this hand",
  },
  pl: {
    tab_photo: "Zdjęcie", tab_live: "Gra na żywo", tab_review: "Analiza", language: "Język",
    settings: "Ustawienia", token: "Token dostępu", save: "Zapisz",
    photo_title: "Zdjęcie twoich kart",
    photo_help: "Zrób lub wgraj zdjęcie kart; ramki pokazują, co rozpoznano.",
    choose_photo: "Zrób / wybierz zdjęcie", your_hand: "Twoje karty", on_table: "Na stole",
    bid_advice: "Podpowiedź licytacji", dealer: "Rozdający", my_seat: "Moje miejsce", hand_cards: "Moje karty",
    bids_so_far: "Dotychczasowe deklaracje", score: "Wynik", get_advice: "Podpowiedz",
    live_title: "Gra na żywo", new_game: "Nowa gra", game_id: "Gra", hand_no: "Rozdanie",
    cam_start: "Włącz kamerę", cam_stop: "Wyłącz kamerę", by_hand: "Wpisz ręcznie", bid: "Deklaracja",
    add_bid: "Dodaj deklarację", card: "Karta", add_card: "Dodaj kartę", undo: "Cofnij", advice: "Podpowiedź",
    next_hand: "Następne rozdanie", set_hand: "Ustaw moje karty", review_title: "Analiza rozdania",
    review_help: "Wgraj zapis rozdania (JSON piki-hand/1) albo wklej go poniżej.",
    choose_record: "Wybierz zapis", review_seat: "Miejsce", all_seats: "wszystkie", review_run: "Analizuj",
    trick: "Lewa", leader: "Wychodzi", winner: "Bierze",
    footer: "piki — trener pików przy prawdziwym stole",
    scanning: "Rozpoznaję karty…", scan_done: "Rozpoznane karty: {n}.", no_cards: "Nie rozpoznano żadnej karty.",
    thinking: "Myślę…", advice_bid: "Deklaruj {bid}", advice_card: "Zagraj {card}",
    bid_turn_first: "Teraz licytuje {seat}, nie ty: wpisz w „Dotychczasowe deklaracje” deklaracje złożone przed twoją (pierwszy licytuje rozdający).",
    bid_over: "Wszystkie cztery deklaracje są już złożone: nie ma czego podpowiadać.",
    expected_points: "oczekiwane punkty", expected_tricks: "oczekiwane lewy", win_chance: "szansa na wygranie partii", make_chance: "kontrakt wychodzi", nil_chance: "Szansa na ugranie zera: {p}%",
    cam_denied: "Odmówiono dostępu do kamery. Zezwól tej stronie na kamerę w ustawieniach przeglądarki i naciśnij „Włącz kamerę” — albo wpisuj deklaracje i karty poniżej.",
    cam_none: "Nie znaleziono kamery w tym urządzeniu. Podłącz kamerę albo wpisuj deklaracje i karty poniżej.",
    cam_busy: "Kamera jest używana przez inny program. Zamknij go i spróbuj ponownie.",
    cam_unsupported: "Ta przeglądarka nie może tu użyć kamery (kamera wymaga HTTPS lub localhost). Nadal możesz wpisywać deklaracje i karty poniżej.",
    cam_other: "Nie udało się włączyć kamery: {msg}",
    cam_on: "Kamera włączona: analizuję obraz.",
    cam_low_res: "Kamera daje obraz {w}×{h} pikseli: karty daleko od niej mogą zostać pominięte. Kamera dająca 1280×720 lub więcej albo ta sama bliżej stołu rozpozna ich znacznie więcej.",
    phase: "Etap", bidding: "licytacja", play: "rozgrywka", done: "koniec rozdania", to_act: "Ruch",
    you: "ty", bids: "Deklaracje", tricks: "Lewy", current_trick: "Bieżąca lewa", played: "Zagrane",
    advice_for_other: "Dla {seat}, który ma teraz ruch (nie dla ciebie):", your_turn: "Twój ruch!", question: "Potwierdź", confirm: "Tak, zapisz", reject: "Nie",
    confirm_card: "Zapisz {card}", created: "Utworzono grę.", saved: "Zapisano.",
    review_running: "Analizuję decyzje…", review_unavailable: "Analiza jest niedostępna: {msg}",
    bad_json: "To nie jest poprawny JSON: {msg}", mistake_cost: "−{cost} pkt", tricks_lost: "−{n} lewy",
    judged_on: "± {err} pkt na {n} symulowanych rozdaniach", best: "najlepsza: {card}",
    blind_nil: "zero w ciemno", nil_bid: "0 (zero)",
    chart_title: "Lewy wzięte w trakcie rozdania", final_score: "Wynik rozdania",
    trick_closed: "Lewa zamknięta.", proposed: "Widzę {card} ({frames}/{needed})…", confirmed: "{seat} zagrał {card}.",
    waiting: "Czekam, aż stół zostanie uprzątnięty.", game_over: "Koniec gry. Wygrywa: {w}",
    hand_points: "rozdanie", total: "razem", bags: "worki", not_seen: "—", game_score: "Wynik przed tym rozdaniem",
  },
};
let lang = localStorage.getItem("piki.lang") || ((navigator.language || "en").startsWith("pl") ? "pl" : "en");

function t(key, vars) {
  let s = (TEXTS[lang] && TEXTS[lang][key]) || TEXTS.en[key] || key;
  for (const [k, v] of Object.entries(vars || {})) s = s.split("{" + k + "}").join(String(v));
  return s;
}

// A number as the language writes it (5.5 / 5,5), with a fixed number of decimals.
function num(x, places) {
  const s = Number(x).toFixed(places);
  return lang === "pl" ? s.replace(".", ",") : s;
}

// A bid in words: 0 is nil, "blind_nil" in the page's language.
function bidName(b) {
  return b === "blind_nil" ? t("blind_nil") : b === 0 || b === "nil" ? t("nil_bid") : String(b);
}

function applyLanguage() {
  document.documentElement.lang = lang;
  document.getElementById("lang-select").value = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const opt of document.querySelectorAll("option[value=blind_nil]")) opt.textContent = bidName("blind_nil");
  for (const opt of document.querySelectorAll("select[name^=bid] option[value='0']")) opt.textContent = bidName(0);
  if (live.state) renderLiveState(live.state);
  if (live.ws) live.ws.close();  // the camera's socket answers in one language: open it again
}

// ------------------------------------------------------------------ helpers
const $ = (sel, root) => (root || document).querySelector(sel);
const SEATS = ["N", "E", "S", "W"];
const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function cardName(code) {
  return (code[0] === "T" ? "10" : code[0]) + SUIT[code[1]];
}

function cardImg(code) {
  return el("img", { class: "card", src: "/cards/" + code + ".svg", alt: cardName(code), title: code });
}

function showCards(container, cards) {
  container.replaceChildren(...(cards || []).map(cardImg));
  if (!cards || !cards.length) container.append(el("span", { class: "status", text: t("not_seen") }));
}

function parseCards(text) {
  return (text || "").split(/[\s,;]+/).map(s => s.trim()).filter(Boolean);
}

function token() { return localStorage.getItem("piki.token") || ""; }

class ApiError extends Error {
  constructor(status, detail) { super(detail); this.status = status; }
}

async function api(method, path, body, params) {
  const headers = {};
  if (token()) headers["Authorization"] = "Bearer " + token();
  let payload;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) { headers["Content-Type"] = "application/json"; payload = JSON.stringify(body); }
  // every request names the page's language: the server's refusals (409, 422) come in it
  const all = Object.assign({ lang }, params || {});
  const qs = "?" + new URLSearchParams(Object.entries(all).filter(([, v]) => v !== undefined && v !== null && v !== ""));
  let r;
  try {
    r = await fetch(path + qs, { method, headers, body: payload });
  } catch (e) {
    throw new ApiError(0, "network error: " + e.message);
  }
  let data = null;
  try { data = await r.json(); } catch (e) { /* not JSON */ }
  if (!r.ok) {
    const detail = (data && data.detail) || r.statusText || ("HTTP " + r.status);
    if (r.status === 401) document.querySelector("details.settings").open = true;
    throw new ApiError(r.status, detail);
  }
  return data;
}

function globalError(msg) {
  const box = $("#global-error");
  box.textContent = msg || "";
  box.hidden = !msg;
}

function fillSeatSelects() {
  for (const sel of document.querySelectorAll("select.seat-select")) {
    sel.replaceChildren(...SEATS.map(s => el("option", { value: s, text: s })));
    if (sel.dataset.default) sel.value = sel.dataset.default;
  }
  const bidOptions = () => [...Array(14).keys()].map(n => el("option", { value: String(n), text: bidName(n) }))
    .concat([el("option", { value: "blind_nil", text: bidName("blind_nil") })]);
  $("#live-manual select[name=bid]").replaceChildren(...bidOptions());
  const box = $("#bid-form .bids-so-far");
  box.replaceChildren(...SEATS.map(s => el("label", {}, s + " ",
    el("select", { name: "bid_" + s }, el("option", { value: "", text: "–" }), ...bidOptions()))));
}

// ------------------------------------------------------------------ tabs
function showView(name) {
  for (const b of document.querySelectorAll("nav button")) b.setAttribute("aria-selected", String(b.dataset.view === name));
  for (const s of document.querySelectorAll("section.view")) s.hidden = s.id !== "view-" + name;
  if (!location.hash.startsWith("#" + name)) history.replaceState(null, "", "#" + name + (name === "live" && live.id ? "/" + live.id : ""));
}

// ------------------------------------------------------------------ drawing boxes
function drawBoxes(ctx, cards, scale) {
  ctx.lineWidth = Math.max(2, 3 * scale);
  ctx.font = `${Math.max(12, Math.round(18 * scale))}px sans-serif`;
  for (const c of cards || []) {
    if (!c.box) continue;
    const [x1, y1, x2, y2] = c.box.map(v => v * scale);
    const color = c.zone === "hand" ? "#22aaff" : "#ffcc00";
    ctx.strokeStyle = color;
    ctx.strokeRect(x1, y1, x2 - x1, y2 - y1);
    const label = `${cardName(c.card)} ${Math.round((c.confidence || 0) * 100)}%`;
    const w = ctx.measureText(label).width + 6;
    ctx.fillStyle = color;
    ctx.fillRect(x1, Math.max(0, y1 - 22 * scale), w, 20 * scale);
    ctx.fillStyle = "#000";
    ctx.fillText(label, x1 + 3, Math.max(14 * scale, y1 - 6 * scale));
  }
}

// ------------------------------------------------------------------ view 1: photo
// The server takes photos of at most 40 megapixels and 10 MB; a phone's 48- or 50-megapixel mode
// goes over, and the scan needs no more than this many pixels on the long side (it reads each
// index from a 48-px patch): larger photos are shrunk here before they are sent.
const PHOTO_MAX_SIDE = 4032, PHOTO_MAX_BYTES = 8 * 1024 * 1024;

async function photoForUpload(img, file) {
  const long = Math.max(img.naturalWidth, img.naturalHeight);
  if (!long || (long <= PHOTO_MAX_SIDE && file.size <= PHOTO_MAX_BYTES)) return file;
  const k = Math.min(1, PHOTO_MAX_SIDE / long);
  const c = document.createElement("canvas");
  c.width = Math.round(img.naturalWidth * k);
  c.height = Math.round(img.naturalHeight * k);
  c.getContext("2d").drawImage(img, 0, 0, c.width, c.height);  // as shown: turned by its EXIF
  const blob = await new Promise(done => c.toBlob(done, "image/jpeg", 0.92));
  if (!blob) return file;
  return new File([blob], (file.name || "photo").replace(/\.[^.]*$/, "") + ".jpg", { type: "image/jpeg" });
}

async function onPhoto(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  const status = $("#photo-status");
  status.textContent = t("scanning");
  const img = new Image();
  const url = URL.createObjectURL(file);
  img.src = url;
  try {
    await img.decode().catch(() => null);  // a format the browser cannot show goes as it is
    const upload = await photoForUpload(img, file);
    const form = new FormData();
    form.append("image", upload, upload.name || file.name || "photo.jpg");
    const scan = await api("POST", "/v1/scan", form, { lang });
    const canvas = $("#photo-canvas");
    const maxW = 1000;
    // a photo this browser cannot show (a HEIC file outside Safari): its boxes on a plain ground
    const shownW = img.naturalWidth || scan.width || 0;
    const scale = shownW ? Math.min(1, maxW / shownW) : 1;
    canvas.width = Math.round(shownW * scale);
    canvas.height = Math.round((img.naturalHeight || scan.height || 0) * scale);
    const ctx = canvas.getContext("2d");
    if (img.naturalWidth) ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    else { ctx.fillStyle = "#33443a"; ctx.fillRect(0, 0, canvas.width, canvas.height); }
    drawBoxes(ctx, scan.cards, scan.width ? canvas.width / scan.width : scale);  // boxes of the photo as sent
    showCards($("#photo-hand"), scan.hand);
    showCards($("#photo-table"), scan.table);
    status.textContent = (scan.cards.length ? t("scan_done", { n: scan.cards.length }) : t("no_cards"))
      + (scan.warnings && scan.warnings.length ? " " + scan.warnings.join(" ") : "");
    // the hand to bid with: no card is played before the bidding ends, so every card in view up
    // to 13 (whatever its zone); beyond 13 the hand zone's most confident 13 (as `piki advise`)
    const all = scan.cards || [];
    const held = all.filter(c => c.zone === "hand");
    const pool = all.length <= 13 ? all : held.length ? held : all;
    const keep = new Set(pool.slice().sort((a, b) => b.confidence - a.confidence).slice(0, 13).map(c => c.card));
    const mine = all.filter(c => keep.has(c.card)).map(c => c.card);
    if (mine.length) $("#bid-form input[name=hand]").value = mine.join(" ");
  } catch (e) {
    status.textContent = "";
    globalError(e.message);
  } finally {
    URL.revokeObjectURL(url);
  }
}

function renderAdvice(box, adv) {
  box.replaceChildren();
  if ("bid" in adv) {
    box.append(el("div", { class: "big", text: t("advice_bid", { bid: bidName(adv.bid) }) }));
  } else if ("card" in adv) {
    box.append(el("div", { class: "big" }, t("advice_card", { card: cardName(adv.card) }) + " ", cardImg(adv.card)));
  }
  if (adv.explanation) box.append(el("p", { text: adv.explanation }));
  if (typeof adv.nil_probability === "number") box.append(el("p", { text: t("nil_chance", { p: Math.round(adv.nil_probability * 100) }) }));
  const cands = (adv.candidates || []).slice(0, 6);
  if (cands.length) {
    const isBid = "bid" in cands[0];
    const pct = v => (typeof v === "number" ? Math.round(v * 100) + "%" : "");
    const rows = cands.map(c => el("tr", {},
      el("td", { text: isBid ? bidName(c.bid) : cardName(c.card) }),
      el("td", { text: c.expected_points !== undefined ? num(c.expected_points, 1) : "" }),
      el("td", { text: isBid ? pct(c.win_chance) : (c.expected_tricks !== undefined ? num(c.expected_tricks, 2) : "") }),
      ...(isBid ? [el("td", { text: pct(c.make_chance) })] : [])));
    box.append(el("table", { class: "candidates" },
      el("thead", {}, el("tr", {}, el("th", { text: isBid ? t("bid") : t("card") }),
        el("th", { text: t("expected_points") }), el("th", { text: t(isBid ? "win_chance" : "expected_tricks") }),
        ...(isBid ? [el("th", { text: t("make_chance") })] : []))),
      el("tbody", {}, ...rows)));
  }
}

async function onBidAdvice(ev) {
  ev.preventDefault();
  const f = ev.target;
  const box = $("#bid-advice");
  const seat = f.seat.value;
  const bids = {};
  for (const s of SEATS) { const v = f["bid_" + s].value; if (v !== "") bids[s] = v === "blind_nil" ? v : Number(v); }
  const record = {
    format: "piki-hand/1", dealer: f.dealer.value,
    score_before: { NS: Number(f.score_ns.value) || 0, EW: Number(f.score_ew.value) || 0 },
    hands: { [seat]: parseCards(f.hand.value) }, bids,
  };
  box.textContent = t("thinking");
  try {
    // the advice is for the seat to bid: first check that it is this player's turn
    const st = await api("POST", "/v1/state", record);
    if (st.phase !== "bidding") throw new Error(t("bid_over"));
    if (st.to_act !== seat) throw new Error(t("bid_turn_first", { seat: st.to_act }));
    // cards typed in or read from a photo have been seen: too late for a blind nil
    renderAdvice(box, await api("POST", "/v1/advice/bid", record,
      { lang, time_budget: 2, cards_seen: record.hands[seat].length > 0 }));
  } catch (e) {
    box.replaceChildren(el("div", { class: "error", role: "alert", text: e.message }));
  }
}

// ------------------------------------------------------------------ view 2: live game
const live = { id: null, state: null, ws: null, stream: null, timer: null, busy: false, adviceSeq: -1, asking: null, frame: null };

async function createGame(ev) {
  ev.preventDefault();
  const f = ev.target;
  const body = {
    dealer: f.dealer.value, user_seat: f.seat.value,
    score_before: { NS: Number(f.score_ns.value) || 0, EW: Number(f.score_ew.value) || 0 },
  };
  const hand = parseCards(f.hand.value);
  if (hand.length) body.hand = hand;
  try {
    const st = await api("POST", "/v1/games", body);
    openGame(st);
    liveMsg(t("created"));
  } catch (e) { globalError(e.message); }
}

function openGame(st) {
  live.id = st.game_id;
  localStorage.setItem("piki.game", live.id);
  history.replaceState(null, "", "#live/" + live.id);
  $("#live-game").hidden = false;
  $("#live-id").textContent = live.id;
  setLiveState(st);
}

async function loadGame(id) {
  try { openGame(await api("GET", "/v1/games/" + encodeURIComponent(id))); }
  catch (e) { if (e.status === 404) localStorage.removeItem("piki.game"); else globalError(e.message); }
}

function liveMsg(msg, isError) {
  const box = $("#live-msg");
  box.textContent = msg || "";
  box.className = isError ? "error" : "status";
}

function setLiveState(st) {
  // With two actions in flight, the answer to the earlier one can arrive last: an older state of
  // the same game (fewer events) must not overwrite the newer one on screen.
  if (live.state && live.state.game_id === st.game_id && st.seq < live.state.seq) return;
  live.state = st;
  renderLiveState(st);
  if (st.user_to_act && st.phase !== "done" && live.adviceSeq !== st.seq) {
    live.adviceSeq = st.seq;
    askAdvice();
  }
}

function renderLiveState(st) {
  $("#live-hand-no").textContent = st.hand_number;
  const box = $("#live-state");
  box.replaceChildren();
  const toAct = st.to_act ? st.to_act + (st.to_act === st.user_seat ? " (" + t("you") + ")" : "") : "–";
  box.append(el("p", {}, el("b", { text: t("phase") + ": " }), t(st.phase) + " · ",
    el("b", { text: t("to_act") + ": " }), toAct));
  if (st.user_to_act) box.append(el("p", { class: "big", text: t("your_turn") }));
  const sb = st.record.score_before, bb = st.record.bags_before;
  box.append(el("p", {}, el("b", { text: t("game_score") + ": " }),
    `NS ${sb.NS} (${t("bags")} ${bb.NS}) · EW ${sb.EW} (${t("bags")} ${bb.EW})`));
  box.append(el("p", {}, el("b", { text: t("bids") + ": " }),
    SEATS.map(s => s + " " + (st.bids[s] === undefined ? "·" : bidName(st.bids[s]))).join("  ")));
  box.append(el("p", {}, el("b", { text: t("tricks") + ": " }),
    SEATS.map(s => s + " " + st.tricks[s]).join("  ")));
  box.append(el("h3", { text: t("current_trick") }));
  box.append(el("div", { class: "trick-now" }, ...st.current_trick.map(p =>
    el("figure", {}, cardImg(p.card), el("figcaption", { text: p.seat })))));
  if (st.user_hand) {
    box.append(el("h3", { text: t("your_hand") }));
    const legal = new Set(st.user_to_act && st.phase === "play" ? st.legal || st.user_legal_known || [] : []);
    box.append(el("div", { class: "cards" }, ...st.user_hand.map(c =>
      el("button", { type: "button", class: "card-btn" + (legal.has(c) ? " legal" : ""), disabled: !legal.has(c),
        title: c, onclick: () => addPlay(c) }, cardImg(c)))));
  }
  box.append(el("h3", { text: t("played") }));
  const played = el("div", { class: "cards small" });
  showCards(played, st.played);
  box.append(played);
  if (st.score) {
    box.append(el("p", {}, el("b", { text: t("final_score") + ": " }),
      ["NS", "EW"].map(k => `${k} ${st.score[k].hand_points} (${t("total")} ${st.score[k].points}, ${t("bags")} ${st.score[k].bags})`).join(" · ")));
  }
  if (st.game_over) box.append(el("p", { class: "big", text: t("game_over", { w: st.winner }) }));
  $("#next-hand").hidden = !st.can_start_next_hand;
  renderQuestions(st.questions || []);
}

function renderQuestions(questions) {
  const box = $("#live-questions");
  box.replaceChildren(...questions.map(q => {
    const buttons = q.cards.length === 1 || q.kind === "hand"
      ? [el("button", { type: "button", text: t("confirm"), onclick: () => answer(q.id, true) })]
      : q.cards.map(c => el("button", { type: "button", text: t("confirm_card", { card: cardName(c) }), onclick: () => answer(q.id, true, c) }));
    return el("div", { class: "question", role: "alert" },
      el("b", { text: t("question") + ": " }), (q.reasons && q.reasons[lang]) || q.reason, " ",
      el("div", { class: "cards small" }, ...q.cards.map(cardImg)),
      ...buttons, el("button", { type: "button", text: t("reject"), onclick: () => answer(q.id, false) }));
  }));
}

async function answer(id, accept, card) {
  try { setLiveState(await api("POST", `/v1/games/${live.id}/questions/${id}`, card ? { accept, card } : { accept })); }
  catch (e) { liveMsg(e.message, true); }
}

async function liveAction(method, path, body) {
  try { setLiveState(await api(method, `/v1/games/${live.id}${path}`, body)); liveMsg(t("saved")); }
  catch (e) { liveMsg(e.message, true); }
}

function addPlay(card) { return liveAction("POST", "/plays", { card }); }

async function askAdvice() {
  const box = $("#live-advice"), moment = () => live.state ? `${live.state.game_id}:${live.state.seq}` : "";
  const asked = moment();
  live.asking = asked;
  box.textContent = t("thinking");
  // advice that comes back after the game moved on (a card or bid since, another game) is not
  // shown; the box is emptied unless a newer question is under way
  const show = (fill) => { if (asked === moment()) fill(); else if (live.asking === asked) box.replaceChildren(); };
  try {
    const advice = await api("GET", `/v1/games/${live.id}/advice`, undefined, { lang, time_budget: 1.5 });
    show(() => {
      renderAdvice(box, advice);
      // the advice is for the seat to act: say so when that is not the player
      if (live.state && live.state.user_seat && advice.seat && !advice.user_to_act)
        box.prepend(el("p", { class: "note", text: t("advice_for_other", { seat: advice.seat }) }));
    });
  } catch (e) { show(() => box.replaceChildren(el("div", { class: "error", text: e.message }))); }
}

// Frames are sent at most this wide, and the camera is asked for as much. A 1280-px frame costs
// the scan about what a 960-px one does (its first pass sees both at 416 px, its closer look at
// 640) and holds twice the detail: held-out renders sent as JPEG (quality 0.8) read 0.980 of the
// cards at 1280 px against 0.963 at 960, half the cards missed, and at 640 px about 0.81
// (models/MODEL_CARD.md, "Camera frames at 1280 px"). A camera that gives less on its longer side
// gets a note that far cards may be missed.
const FRAME_MAX_WIDTH = 1280;

function cameraNote(video) {
  const box = $("#camera-note");
  const w = video ? video.videoWidth : 0, h = video ? video.videoHeight : 0;
  const low = w > 0 && Math.max(w, h) < FRAME_MAX_WIDTH;
  box.textContent = low ? t("cam_low_res", { w, h }) : "";
  box.hidden = !low;
}

function cameraMessage(msg) {
  const box = $("#camera-msg");
  box.textContent = msg || "";
  box.hidden = !msg;
}

async function startCamera() {
  cameraMessage("");
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    cameraMessage(t("cam_unsupported"));
    return;
  }
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: FRAME_MAX_WIDTH } }, audio: false });
  } catch (e) {
    const name = e && e.name;
    if (name === "NotAllowedError" || name === "SecurityError" || name === "PermissionDeniedError") cameraMessage(t("cam_denied"));
    else if (name === "NotFoundError" || name === "DevicesNotFoundError" || name === "OverconstrainedError") cameraMessage(t("cam_none"));
    else if (name === "NotReadableError" || name === "TrackStartError") cameraMessage(t("cam_busy"));
    else cameraMessage(t("cam_other", { msg: (e && e.message) || String(e) }));
    return;
  }
  live.stream = stream;
  const video = $("#live-video");
  video.srcObject = stream;
  try { await video.play(); } catch (e) { /* autoplay policies: muted video plays */ }
  video.onresize = () => { if (live.stream) cameraNote(video); };  // also when a phone is turned
  if (video.videoWidth) cameraNote(video);
  $("#cam-start").hidden = true;
  $("#cam-stop").hidden = false;
  $("#frame-status").textContent = t("cam_on");
  openSocket();
  live.timer = setInterval(sendFrame, 400);
}

function stopCamera() {
  clearInterval(live.timer);
  cameraNote(null);
  live.timer = null;
  if (live.stream) for (const tr of live.stream.getTracks()) tr.stop();
  live.stream = null;
  if (live.ws) live.ws.close();
  live.ws = null;
  live.busy = false;
  $("#cam-start").hidden = false;
  $("#cam-stop").hidden = true;
  const ov = $("#live-overlay");
  ov.getContext("2d").clearRect(0, 0, ov.width, ov.height);
}

function openSocket() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = "?lang=" + lang + (token() ? "&token=" + encodeURIComponent(token()) : "");
  const ws = new WebSocket(`${proto}//${location.host}/v1/games/${live.id}/frames${q}`);
  ws.binaryType = "arraybuffer";
  ws.onmessage = (m) => { live.busy = false; onFrameResult(JSON.parse(m.data)); };
  ws.onclose = () => { live.busy = false; if (live.ws === ws) live.ws = null; };
  live.ws = ws;
}

function sendFrame() {
  const video = $("#live-video");
  if (!live.ws || live.ws.readyState !== WebSocket.OPEN) { if (!live.ws && live.stream) openSocket(); return; }
  if (live.busy || !video.videoWidth) return;
  const scale = Math.min(1, FRAME_MAX_WIDTH / video.videoWidth);
  const c = live.frame || (live.frame = document.createElement("canvas"));
  c.width = Math.round(video.videoWidth * scale);
  c.height = Math.round(video.videoHeight * scale);
  c.getContext("2d").drawImage(video, 0, 0, c.width, c.height);
  live.busy = true;
  c.toBlob(async (blob) => {
    if (!blob || !live.ws || live.ws.readyState !== WebSocket.OPEN) { live.busy = false; return; }
    live.ws.send(await blob.arrayBuffer());
  }, "image/jpeg", 0.8);
}

function onFrameResult(out) {
  const status = $("#frame-status");
  if (out.error) { status.textContent = out.error; return; }
  const ov = $("#live-overlay");
  const video = $("#live-video");
  ov.width = video.clientWidth;
  ov.height = video.clientHeight;
  const ctx = ov.getContext("2d");
  ctx.clearRect(0, 0, ov.width, ov.height);
  drawBoxes(ctx, out.cards, out.width ? ov.width / out.width : 1);
  const notes = [];
  for (const e of out.events || []) {
    if (e.type === "trick_closed") notes.push(t("trick_closed"));
    else if (e.status === "proposed") notes.push(t("proposed", { card: cardName(e.card), frames: e.frames, needed: e.needed }));
    else if (e.status === "confirmed") notes.push(t("confirmed", { seat: e.seat, card: cardName(e.card) }));
    else if (e.status === "waiting") notes.push(t("waiting"));
  }
  // what the scan and the tracker warn about (a card read unsurely, a played card seen again);
  // an empty table's "no cards found" is no news in a live game
  if ((out.cards || []).length) notes.push(...(out.warnings || []));
  status.textContent = notes.join(" ") || t("cam_on");
  if (out.game) setLiveState(out.game);
}

// ------------------------------------------------------------------ view 3: review
async function onReviewFile(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  $("#review-text").value = await file.text();
  runReview();
}

async function runReview() {
  const status = $("#review-status");
  const text = $("#review-text").value.trim();
  let record;
  try { record = JSON.parse(text); }
  catch (e) {
    // one record per line (JSON Lines): review the first one
    const first = text.split("\n").find(l => l.trim());
    try { record = JSON.parse(first || ""); }
    catch (e2) { status.textContent = ""; globalError(t("bad_json", { msg: e.message })); return; }
  }
  globalError("");
  $("#review-summary").textContent = "";
  let st;
  try { st = await api("POST", "/v1/state", record); }
  catch (e) { globalError(e.message); return; }
  drawReviewTable(st, []);
  drawChart(st, []);
  status.textContent = t("review_running");
  try {
    const seat = $("#review-seat").value;
    // no time budget: the server judges each decision on a fixed set of deals, so the same hand
    // gets the same review every time
    const rev = await api("POST", "/v1/review", record, { lang, seat });
    status.textContent = "";
    // a bid with its better one where the review lists it (`listed`, as `piki review` does), else
    // a tick
    const bidNotes = (rev.decisions || []).filter(d => d.kind === "bid").map(d =>
      `${d.seat}: ${t("bid")} ${bidName(d.played)}` + (d.listed ? ` → ${t("best", { card: bidName(d.best) })}`
        + ` (${t("mistake_cost", { cost: num(d.cost, 1) })}`
        + (d.note ? `: ${d.note}` : "") + ")" + (d.mark ? " " + d.mark : "") : " ✓"));
    // one line a seat, then the bids
    const lines = (rev.seats || []).length ? rev.seats.map(s => s.summary) : [rev.summary || ""];
    $("#review-summary").replaceChildren(...lines.map(line => el("p", { text: line })),
      ...(bidNotes.length ? [el("p", {}, el("b", { text: t("bids") + ": " })),
                             el("ul", {}, ...bidNotes.map(note => el("li", { text: note })))] : []));
    drawReviewTable(st, rev.decisions || []);
    drawChart(st, rev.decisions || []);
  } catch (e) {
    status.textContent = t("review_unavailable", { msg: e.message });
  }
}

function drawReviewTable(st, decisions) {
  const table = $("#review-table");
  const body = table.querySelector("tbody");
  const plays = new Map(decisions.filter(d => d.kind === "play").map(d => [d.index, d]));
  const tricks = st.completed_tricks.map(tr => ({ ...tr }));
  if (st.current_trick.length) tricks.push({ leader: st.current_trick[0].seat, cards: st.current_trick.map(p => p.card), winner: null });
  const rows = tricks.map((tr, i) => {
    const bySeat = {};
    const li = SEATS.indexOf(tr.leader);
    tr.cards.forEach((c, k) => { bySeat[SEATS[(li + k) % 4]] = { card: c, index: i * 4 + k }; });
    const cells = SEATS.map(s => {
      const p = bySeat[s];
      if (!p) return el("td");
      const d = plays.get(p.index);
      const td = el("td", { class: (tr.winner === s ? "winner " : "") + (d && d.mark ? "mistake" : "") },
        cardImg(p.card), el("span", { class: "label " + ("HD".includes(p.card[1]) ? "red" : ""), text: cardName(p.card) }));
      if (d && d.mark) {
        td.append(el("span", { class: "cost", text: d.mark + " " + t("mistake_cost", { cost: num(d.cost, 1) }) }),
          el("span", { class: "best", text: t("best", { card: cardName(d.best) }) }));
        // the mark is by tricks lost, the cost in points: the tooltip gives both
        td.title = `${d.played} → ${d.best}: ${t("mistake_cost", { cost: num(d.cost, 1) })}`
          + (d.tricks_lost ? `, ${t("tricks_lost", { n: num(d.tricks_lost, 1) })}` : "")
          + (d.deals ? ` (${t("judged_on", { err: d.cost_error === null || d.cost_error === undefined ? "?" : num(d.cost_error, 1), n: d.deals })})` : "")
          + (d.note ? `\n${d.note}` : "");
      }
      return td;
    });
    return el("tr", {}, el("td", { text: String(i + 1) }), el("td", { text: tr.leader }), ...cells,
      el("td", { text: tr.winner || "" }));
  });
  body.replaceChildren(...rows);
  table.hidden = false;
}

function drawChart(st, decisions) {
  // Cumulative tricks of both teams after each trick, with the cost of mistakes as red marks.
  const W = 520, H = 260, L = 40, B = 30, T = 48, R = 40;
  const n = st.completed_tricks.length;
  const ns = [0], ew = [0];
  for (const tr of st.completed_tricks) {
    const team = tr.winner === "N" || tr.winner === "S" ? "NS" : "EW";
    ns.push(ns[ns.length - 1] + (team === "NS" ? 1 : 0));
    ew.push(ew[ew.length - 1] + (team === "EW" ? 1 : 0));
  }
  const x = i => L + (W - L - R) * i / 13;
  const y = v => H - B - (H - B - T) * v / 13;
  const ns_ = "http://www.w3.org/2000/svg";
  const s = (tag, attrs, text) => { const e = document.createElementNS(ns_, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text !== undefined) e.textContent = text; return e; };
  const svg = s("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": t("chart_title") });
  svg.append(s("text", { x: L, y: 16, "font-size": 13 }, t("chart_title")));
  for (let v = 0; v <= 13; v += 13) svg.append(s("text", { x: L - 6, y: y(v) + 4, "font-size": 10, "text-anchor": "end" }, String(v)));
  svg.append(s("line", { x1: L, y1: y(0), x2: W - R, y2: y(0), stroke: "#999" }));
  svg.append(s("line", { x1: L, y1: y(0), x2: L, y2: y(13), stroke: "#999" }));
  for (let i = 1; i <= 13; i++) svg.append(s("text", { x: x(i), y: H - B + 14, "font-size": 10, "text-anchor": "middle" }, String(i)));
  const line = (vals, color, label) => {
    svg.append(s("polyline", { points: vals.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: color, "stroke-width": 2.5 }));
    svg.append(s("text", { x: x(vals.length - 1) + 4, y: y(vals[vals.length - 1]) - 4, "font-size": 11, fill: color }, label + " " + vals[vals.length - 1]));
  };
  line(ns, "#1565c0", "NS");
  line(ew, "#c62828", "EW");
  for (const d of decisions) {
    if (!d.mark || d.kind !== "play") continue;
    const i = Math.floor(d.index / 4) + 1;
    svg.append(s("circle", { cx: x(Math.min(i, 13)), cy: y(0) - 6, r: Math.min(10, 3 + d.cost / 5), fill: "#b3261e", opacity: 0.7 },));
  }
  if (st.score) {
    const txt = ["NS", "EW"].map(k => `${k}: ${st.score[k].hand_points >= 0 ? "+" : ""}${st.score[k].hand_points} → ${st.score[k].points}`).join("   ");
    svg.append(s("text", { x: L, y: 34, "font-size": 12 }, t("final_score") + ": " + txt));
  }
  $("#review-chart").replaceChildren(svg);
  if (!n) $("#review-chart").replaceChildren();
}

// ------------------------------------------------------------------ start
function init() {
  fillSeatSelects();
  applyLanguage();
  $("#lang-select").addEventListener("change", e => { lang = e.target.value; localStorage.setItem("piki.lang", lang); applyLanguage(); });
  $("#token-input").value = token();
  $("#token-form").addEventListener("submit", (e) => { e.preventDefault(); localStorage.setItem("piki.token", $("#token-input").value.trim()); globalError(""); });
  for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => showView(b.dataset.view));
  $("#photo-file").addEventListener("change", onPhoto);
  $("#bid-form").addEventListener("submit", onBidAdvice);
  $("#live-new").addEventListener("submit", createGame);
  $("#cam-start").addEventListener("click", startCamera);
  $("#cam-stop").addEventListener("click", stopCamera);
  $("#add-bid").addEventListener("click", () => { const v = $("#live-manual select[name=bid]").value; liveAction("POST", "/bids", { bid: v === "blind_nil" ? v : Number(v) }); });
  $("#add-card").addEventListener("click", () => { const c = $("#live-manual input[name=card]").value.trim(); if (c) addPlay(c).then(() => { $("#live-manual input[name=card]").value = ""; }); });
  $("#set-hand").addEventListener("click", () => liveAction("PUT", "/hand", { cards: parseCards($("#live-manual input[name=hand]").value) }));
  $("#undo").addEventListener("click", () => liveAction("POST", "/undo"));
  $("#ask-advice").addEventListener("click", askAdvice);
  $("#next-hand").addEventListener("click", () => liveAction("POST", "/hands", {}));
  $("#review-file").addEventListener("change", onReviewFile);
  $("#review-run").addEventListener("click", runReview);
  const [view, id] = location.hash.replace(/^#/, "").split("/");
  if (["photo", "live", "review"].includes(view)) showView(view);
  const gid = view === "live" && id ? id : localStorage.getItem("piki.game");
  if (gid) loadGame(gid);
}

document.addEventListener("DOMContentLoaded", init);
