// Backgammon against the computer: draws the board from the JSON API's
// game state and sends the player's actions.  Every rule is the server's
// (the engine's): the page only shows what the state says is allowed.
//
// For tests (and the curious) the page says what it is doing on <body>:
// data-screen (lobby | game), data-phase (the game's phase), data-state
// (what the page waits for: roll, move, answer-double, ..., computer),
// data-ready ("1" when a state is drawn, no request is out and no
// animation runs), data-version (counts the states and selections drawn),
// data-opening-shown (the opening throws shown, "3-3 5-2"), data-keys
// (key presses seen), data-animated (the computer's steps animated in
// the last answer) and data-sounds (sounds made).  window.backgammonState is the last state.
// After "Analyse": data-analysis (loading | ready | error), data-analysis-marked (the
// marked decisions in the move log), and while an analysed position is on the board
// data-reviewing="1" with data-review-game / data-review-action; window.backgammonAnalysis
// is the analysis shown.
//
// Every word shown comes from the catalog of the player's language
// (/static/lang-LANG.json, LANG one of LANGS): t(key, params) fills a
// message's {name} places, choosing a plural form by Intl.PluralRules where
// the catalog gives one (an object of "one" / "other" forms keyed by the
// count "n").  data-lang on <body> and <html lang> name the language shown.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const SETTINGS_KEY = "backgammon.settings";
  const SAVED_KEY = "backgammon.saved";
  const TAB_KEY = "backgammon.tab";          // sessionStorage: the game this tab shows (a reload returns to it)
  const LANG_KEY = "backgammon.lang";        // the language chosen (none: the browser's)
  const LANGS = ["zh-Hans", "zh-Hant", "en"];
  const VW = 1014;                           // the board's width in SVG units; its height follows the labels
  const DEFAULTS = {
    level: "normal", length: 1, cube: false, side: 0,
    pointNumbers: true, bothPips: true, autoEnd: true,
    pace: "realistic", sound: true, orientation: "right",
  };
  // Pace of the computer's moves (ms): the dice tumbling, each checker's
  // flight, the pause after each, after the play, a tie of the opening roll;
  // and how long a whole computer turn takes, from its roll to its last
  // checker ([min, max]: seed 004's 真实 2-5 s, 较快 1-2 s): the steps are
  // shortened to fit, and a short turn waits at its end.
  const PACES = {
    realistic: { roll: 700, step: 520, gap: 180, after: 380, tie: 1000, nomove: 1200, turn: [2000, 5000] },
    fast: { roll: 300, step: 260, gap: 80, after: 200, tie: 450, nomove: 600, turn: [1000, 2000] },
  };
  const COLORS = {
    light: { fill: "url(#chk-light)", stroke: "#6b5535", text: "#3a2a1a", die: "#f6efe0", pip: "#2b2018", css: "light" },
    dark: { fill: "url(#chk-dark)", stroke: "#0d0a08", text: "#f3ead8", die: "#2a1d17", pip: "#f3ead8", css: "dark" },
  };
  // The analysis: the marks of the errors, and the colours of the play made and the best one.
  const MARKS = { doubtful: "?!", error: "?", blunder: "??" };
  const REVIEW_COLORS = { played: "#ff6ad5", best: "#7fe3ff" };
  const LEVEL_KEYS = { beginner: "level.beginner", normal: "level.normal", expert: "level.expert", master: "level.master" };
  const LEVEL_NOTE_KEYS = { beginner: "level.beginner_note", normal: "level.normal_note", expert: "level.expert_note",
    master: "level.master_note" };
  const FORMAT_KEYS = { money: ["scoreboard.money_long", "scoreboard.money_short"],
    single: ["scoreboard.single_long", "scoreboard.single_short"], match: ["scoreboard.match_long", "scoreboard.match_short"] };
  const ENDING_KEYS = { single: "ending.single", gammon: "ending.gammon", backgammon: "ending.backgammon",
    drop: "ending.drop", resignation: "ending.resignation" };
  const RESIGN_KEYS = { 1: "resign.single", 2: "resign.gammon", 3: "resign.backgammon" };
  const SKILL_KEYS = { doubtful: "skill.doubtful", error: "skill.error", blunder: "skill.blunder" };
  // The cube decisions' words (cube.proper_action, analysis): each said in the player's language.
  const CUBE_ACTION_KEYS = { "no double": "cube.no_double", "double": "cube.double", "double, take": "cube.double_take",
    "double, pass": "cube.double_pass", "double, beaver": "cube.double_beaver", "too good to double": "cube.too_good",
    "no double, beaver": "cube.no_double_beaver", "take": "cube.take", "pass": "cube.pass", "beaver": "cube.beaver" };
  const cubeWord = (action) => (CUBE_ACTION_KEYS[action] ? t(CUBE_ACTION_KEYS[action]) : action);

  // -- the language ------------------------------------------------------------------------
  let lang = "en";
  let catalog = {};
  let plurals = new Intl.PluralRules("en");
  // The catalog for a language tag: zh-TW, zh-HK, zh-MO and zh-Hant 繁體; any other zh 简体; en English.
  function resolveLang(tag) {
    const x = String(tag || "").toLowerCase();
    if (!x) return null;
    if (x === "zh-hans" || x === "zh-hant" || x === "en") return LANGS.find((l) => l.toLowerCase() === x);
    if (/^zh(-|$)/.test(x)) {
      if (/-hant(-|$)/.test(x)) return "zh-Hant";
      if (/-hans(-|$)/.test(x)) return "zh-Hans";
      return /-(tw|hk|mo)(-|$)/.test(x) ? "zh-Hant" : "zh-Hans";
    }
    return /^en(-|$)/.test(x) ? "en" : null;
  }
  function browserLang() {       // the first of the browser's languages that has a catalog, else English
    const list = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
    for (const tag of list) {
      const l = resolveLang(tag);
      if (l) return l;
    }
    return "en";
  }
  function chosenLang() {
    const asked = resolveLang(new URLSearchParams(location.search).get("lang"));
    if (asked) { try { localStorage.setItem(LANG_KEY, asked); } catch (e) { /* private mode */ } return asked; }
    let kept = null;
    try { kept = localStorage.getItem(LANG_KEY); } catch (e) { kept = null; }
    return LANGS.includes(kept) ? kept : browserLang();
  }
  async function loadLang(name) {
    const response = await fetch(`/static/lang-${name}.json`, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`lang-${name}.json: ${response.status}`);
    catalog = await response.json();
    lang = name;
    plurals = new Intl.PluralRules(name);
    document.documentElement.lang = name;
    document.body.dataset.lang = name;
  }
  // The message of `key` with its {places} filled; a plural message picks its form by params.n.
  function t(key, params) {
    let m = catalog[key];
    if (m === undefined) {
      console.error(`no message ${key} in lang-${lang}.json`);
      return key;
    }
    if (typeof m === "object") m = m[plurals.select(Number(params && params.n))] || m.other;
    return m.replace(/\{(\w+)\}/g, (all, name) => (params && params[name] !== undefined ? String(params[name]) : all));
  }
  // The static text of the page: data-i18n (the text), data-i18n-title / -aria-label / -placeholder.
  function translatePage() {
    for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
    for (const [data, attr] of [["i18nTitle", "title"], ["i18nAriaLabel", "aria-label"], ["i18nPlaceholder", "placeholder"]]) {
      const sel = `[data-${data.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())}]`;
      for (const node of document.querySelectorAll(sel)) node.setAttribute(attr, t(node.dataset[data]));
    }
    document.title = t("app.title");
    for (const sel of document.querySelectorAll("[data-setting-lang]")) sel.value = lang;
  }
  async function switchLang(name) {
    if (!LANGS.includes(name) || name === lang) return;
    try { localStorage.setItem(LANG_KEY, name); } catch (e) { /* private mode */ }
    await loadLang(name);
    translatePage();
    if (screen() === "lobby") fillLobby();
    else if (game) render();
    bump();
  }
  const rollText = (dice) => `${Math.max(dice[0], dice[1])}${Math.min(dice[0], dice[1])}`;
  const rollDash = (dice) => `${Math.max(dice[0], dice[1])}-${Math.min(dice[0], dice[1])}`;
  const noMove = (play) => play || t("log.no_move_short");

  const params = new URLSearchParams(location.search);
  let settings = loadSettings();
  let seedParam = params.has("seed") ? Number(params.get("seed")) : null;

  let game = null;          // the last state from the server
  let selected = null;      // the point (your numbering, 25 = bar) of the checker picked
  let press = null;         // a pointer pressed on the board: {id, x, y, loc, source}
  let drag = null;          // a checker being dragged: {from, node}
  let hintView = null;      // the hint drawn on the board: {hint, index}
  let pending = 0;          // requests and animations under way
  let version = 0;
  let lastMatLog = null;    // the log when the record was last saved
  let analysis = null;      // the analysis shown: {data, key (of the history it covers), id}
  let review = null;        // an analysed decision drawn on the board instead of the game: {entry}
  let logKey = null;        // the move log last drawn (its scroll stays while it is the same)
  let G = geometry(13);     // the board's geometry
  let scale = 1;            // CSS px per SVG unit

  const $ = (id) => document.getElementById(id);
  const svg = () => $("board");

  // -- settings and the saved game ---------------------------------------------------
  function loadSettings() {
    let s = {};
    try { s = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {}; } catch (e) { s = {}; }
    return Object.assign({}, DEFAULTS, s);
  }
  function saveSettings() {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  }
  function pace() {            // ?pace=instant|fast|realistic overrides the setting until it is changed
    const p = params.get("pace");
    if (p && (p === "instant" || PACES[p])) return p;
    return settings.pace;
  }
  function loadSaved() {
    try { return JSON.parse(localStorage.getItem(SAVED_KEY) || "null"); } catch (e) { return null; }
  }
  function writeSaved(saved) {
    if (saved) localStorage.setItem(SAVED_KEY, JSON.stringify(saved));
    else localStorage.removeItem(SAVED_KEY);
  }

  // -- the API -------------------------------------------------------------------------
  async function api(method, path, body) {
    const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin", mode: "same-origin" };
    if (method !== "GET") {          // every state-changing request: JSON, from this origin
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body === undefined ? {} : body);
    }
    let response;
    try {
      response = await fetch(path, options);
    } catch (e) {
      throw refusal("network", {});
    }
    const type = response.headers.get("Content-Type") || "";
    let data = null;
    if (type.includes("json")) {
      try { data = await response.json(); } catch (e) { data = null; }
    } else {
      data = await response.text();
    }
    if (!response.ok) {
      const err = refusal(data && data.code ? data.code : "unknown", (data && data.params) || {});
      err.status = response.status;
      err.english = data && data.error ? data.error : `${response.status}`;
      throw err;
    }
    return data;
  }
  // A refusal, the server's (its code and particulars) or the page's own: said in the player's language.
  function refusal(code, params) {
    const err = new Error(code);
    err.code = code;
    err.params = params || {};
    return err;
  }
  function refusalNodes(e) {
    const p = Object.assign({}, e.params || {});
    for (const [k, v] of Object.entries(p)) if (Array.isArray(v) && v.length === 2 && k === "dice") p[k] = rollDash(v);
    if (Array.isArray(p.dice)) p.dice = p.dice.join("、");
    const key = `error.${e.code}`;
    const known = e.code && catalog[key] !== undefined;
    const nodes = [known ? t(key, p) : t("error.unknown", { status: e.status || "?" })];
    if (known && p.rule) {       // the rule it cites, in the rules on the page
      const a = document.createElement("a");
      a.href = `#rule-${String(p.rule).replace(".", "-")}`;
      a.className = "rule-link";
      a.dataset.rule = p.rule;
      a.textContent = t("error.rule_link", { rule: p.rule });
      a.addEventListener("click", (ev) => { ev.preventDefault(); openGuide("rules", a.hash.slice(1)); });
      nodes.push(" ", a);
    }
    return nodes;
  }

  // -- running one thing at a time -------------------------------------------------------
  function markReady() {
    document.body.dataset.ready = pending === 0 ? "1" : "0";
  }
  function bump() {
    version += 1;
    document.body.dataset.version = String(version);
  }
  async function run(task) {
    if (pending) return false;
    pending += 1;
    markReady();
    showError(null);
    try {
      await task();
    } catch (e) {
      if (!e.code) console.error(e);
      showError(e.code ? e : refusal("page", {}));
      try { await recover(e); } catch (e2) { /* the error shown stays */ }
    } finally {
      pending -= 1;
      bump();
      markReady();
    }
    return true;
  }
  function showError(e) {         // a refusal (or null: none)
    for (const box of [$("error"), $("lobby-error")]) {
      if (!box) continue;
      box.hidden = !e;
      box.replaceChildren(...(e ? refusalNodes(e) : []));
      if (e) box.dataset.code = e.code || ""; else delete box.dataset.code;
    }
  }
  // After a refused action: draw the server's state again (409: the page was
  // behind), or continue from the saved copy (404/410: the server forgot the game).
  async function recover(e) {
    if (!game || screen() !== "game") return;
    if (e.status === 409) {
      const state = await api("GET", `/api/games/${encodeURIComponent(game.id)}`);
      selected = null;
      game = state;
      window.backgammonState = state;
      render();
    } else if (e.status === 404 || e.status === 410) {
      if (await openGame(game.id, loadSaved())) showError(null);
      else showError(e);
    }
  }
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  function frame() {
    return new Promise((resolve) => {
      let done = false;
      const finish = () => { if (!done) { done = true; resolve(); } };
      requestAnimationFrame(finish);
      setTimeout(finish, 40);         // a hidden tab runs no animation frames
    });
  }

  // -- actions --------------------------------------------------------------------------
  async function perform(body, notes) {
    const before = game;
    const state = await api("POST", `/api/games/${encodeURIComponent(game.id)}/actions`, body);
    if (notes && notes.length) state.notes = notes.concat(state.notes || []);     // what the page's own follow-up carries on
    selected = null;
    if (!state.hint) hintView = null;
    await present(state, before, body);
    await follow(state, body);
  }

  // What the page does by itself after an answer: roll again after a tie
  // of the opening roll; end the turn once the dice are used.
  async function follow(state, body) {
    if (state !== game) return;
    const g = state.game;
    if (body.action === "roll" && g.phase === "opening" && g.opening.length && state.actions.includes("roll")) {
      await perform({ action: "roll" }, state.notes);     // the tie was shown (animateAnswer held it)
      return;
    }
    const m = state.moves;
    if (settings.autoEnd && m && m.complete && Object.keys(m.destinations).length === 0 &&
        state.actions.includes("commit") && body.action === "move") {
      const p = PACES[pace()];
      if (p && visible()) await sleep(Math.min(250, p.after));
      await perform({ action: "commit" }, state.notes);
    }
  }

  function act(body) {
    if (!game) return;
    run(() => perform(body));
  }

  async function newMatch(options) {
    const body = Object.assign({}, options);
    if (seedParam !== null && !body.resume) { body.seed = seedParam; seedParam = null; }
    const state = await api("POST", "/api/games", body);
    selected = null;
    hintView = null;
    game = null;
    lastMatLog = null;
    forgetAnalysis();
    sessionStorage.setItem(TAB_KEY, state.id);
    showScreen("game");
    await present(state, null, { action: "new" });
  }

  function matchOptions() {
    const cube = !!settings.cube;
    let length = Number(settings.length);
    if (!cube && (length === 0 || length === 3)) length = 5;       // money play and 3-point matches come with the cube
    return { length, cube, level: LEVEL_KEYS[settings.level] ? settings.level : DEFAULTS.level, side: Number(settings.side) };
  }

  // Open a game: the server's copy, else the saved record (the server
  // restarted or dropped the game to make room).
  async function openGame(id, saved) {
    let state = null;
    try {
      state = await api("GET", `/api/games/${encodeURIComponent(id)}`);
    } catch (e) {
      if ((e.status === 404 || e.status === 410) && saved && saved.id === id && saved.mat) {
        await newMatch({ level: LEVEL_KEYS[saved.level] ? saved.level : DEFAULTS.level, side: Number(saved.side || 0),
          resume: { format: "mat", text: saved.mat } });
        game.notes = [{ code: "resumed_from_saved", params: {} }];
        render();
        return true;
      }
      if (e.status === 404 || e.status === 410) return false;
      throw e;
    }
    selected = null;
    hintView = null;
    game = null;
    lastMatLog = null;
    forgetAnalysis();
    sessionStorage.setItem(TAB_KEY, state.id);
    showScreen("game");
    await present(state, null, { action: "load" });
    return true;
  }

  // -- the saved copy ------------------------------------------------------------------
  async function persist(state) {
    if (!state) return;
    const m = state.match;
    let saved = loadSaved();
    if (!saved || saved.id !== state.id) saved = { id: state.id };
    Object.assign(saved, {
      id: state.id, level: state.level, side: state.you, length: m.length, money: m.money, cube: m.cube,
      score: m.score, game: m.game, crawford: m.crawford, over: m.over, savedAt: Date.now(),
    });
    const logKey = JSON.stringify(state.log);
    if (logKey !== lastMatLog || !saved.mat) {
      try {
        saved.mat = await api("GET", `/api/games/${encodeURIComponent(state.id)}/mat`);
        lastMatLog = logKey;
      } catch (e) { /* the copy saved before stays */ }
    }
    if (m.over) writeSaved(null);    // nothing to continue
    else writeSaved(saved);
  }

  // -- geometry --------------------------------------------------------------------------
  function geometry(label) {
    const F = Math.max(30, Math.round(label + 14));
    const g = {
      W: 66, R: 30, F, TOP: F, BOTTOM: F + 700, MID: F + 350, H: 700 + 2 * F, TRI: 292,
      LEFT: 72, BAR_L: 468, BAR_R: 540, RIGHT: 936, TRAY_X: 946, TRAY_W: 56, CUBE_X: 36,
      flip: settings.orientation === "left", label,
    };
    g.BAR_X = (g.BAR_L + g.BAR_R) / 2;
    return g;
  }
  const mx = (x) => (G.flip ? VW - x : x);
  const rx = (x, w) => (G.flip ? VW - x - w : x);
  function pointX(p) {          // centre of point p (your numbering)
    const W = G.W;
    let x;
    if (p <= 6) x = G.RIGHT - W * (p - 1) - W / 2;
    else if (p <= 12) x = G.BAR_L - W * (p - 7) - W / 2;
    else if (p <= 18) x = G.LEFT + W * (p - 13) + W / 2;
    else x = G.BAR_R + W * (p - 19) + W / 2;
    return mx(x);
  }
  const isTop = (p) => p >= 13;
  function slotY(p, i) {        // the i-th checker from the edge on point p
    const k = Math.min(i, 4);
    return isTop(p) ? G.TOP + G.R + 2 * G.R * k : G.BOTTOM - G.R - 2 * G.R * k;
  }
  // Where a checker sits: kind "point" (p), "bar" (side), "off" (side).
  function spot(where, side, i) {
    if (where === 25 && side === "you") return { x: mx(G.BAR_X), y: G.MID + 70 + 2 * G.R * Math.min(i, 3) };
    if (where === 25) return { x: mx(G.BAR_X), y: G.MID - 70 - 2 * G.R * Math.min(i, 3) };
    if (where === 0) {
      const y = side === "you" ? G.BOTTOM - 16 - Math.min(i, 14) * 22 : G.TOP + 16 + Math.min(i, 14) * 22;
      return { x: mx(G.TRAY_X + G.TRAY_W / 2), y };
    }
    return { x: pointX(where), y: slotY(where, i) };
  }
  // Screen half centres: the opening dice go yours left, the computer's right;
  // later the roller's dice lie on its side (yours right, the computer's left).
  function halfX(screenSide) {
    const left = (G.LEFT + G.BAR_L) / 2, right = (G.BAR_R + G.RIGHT) / 2;
    if (!G.flip) return screenSide === "left" ? left : right;
    return screenSide === "left" ? VW - right : VW - left;
  }
  function locate(x, y) {       // the board place under SVG point (x, y): 1-24, 25 (bar), 0 (your tray), null
    const ux = G.flip ? VW - x : x;
    if (y < 0 || y > G.H) return null;
    if (ux >= G.TRAY_X - 8) return y > G.MID ? 0 : null;
    if (ux >= G.BAR_L && ux < G.BAR_R) return 25;
    const top = y < G.MID;
    if (ux >= G.LEFT && ux < G.BAR_L) {
      const col = Math.floor((ux - G.LEFT) / G.W);
      return top ? 13 + col : 12 - col;
    }
    if (ux >= G.BAR_R && ux < G.RIGHT) {
      const col = Math.floor((ux - G.BAR_R) / G.W);
      return top ? 19 + col : 6 - col;
    }
    return null;
  }
  function svgXY(ev) {
    const m = svg().getScreenCTM();
    if (!m) return { x: -1, y: -1 };
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }
  function measure() {          // CSS px per SVG unit, and labels of at least 11.5 px
    const w = svg().getBoundingClientRect().width;
    scale = w > 0 ? w / VW : 1;
    const label = Math.max(13, Math.ceil(11.5 / scale));
    if (label !== G.label || G.flip !== (settings.orientation === "left")) G = geometry(label);
  }
  const fs = (units) => Math.max(units, G.label);

  // -- drawing helpers ---------------------------------------------------------------------
  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }
  function text(parent, x, y, content, attrs) {
    const t = el("text", Object.assign({ x, y, "text-anchor": "middle", "dominant-baseline": "central",
      "font-family": "Georgia, serif" }, attrs || {}), parent);
    t.textContent = content;
    return t;
  }
  function defs(root) {
    const d = el("defs", {}, root);
    const wood = el("linearGradient", { id: "wood", x1: 0, y1: 0, x2: 1, y2: 1 }, d);
    el("stop", { offset: "0", "stop-color": "#8a5a2b" }, wood);
    el("stop", { offset: ".5", "stop-color": "#6b3e1f" }, wood);
    el("stop", { offset: "1", "stop-color": "#4e2b14" }, wood);
    const felt = el("radialGradient", { id: "felt", cx: ".5", cy: ".5", r: ".75" }, d);
    el("stop", { offset: "0", "stop-color": "#357a45" }, felt);
    el("stop", { offset: "1", "stop-color": "#1f5330" }, felt);
    const light = el("radialGradient", { id: "chk-light", cx: ".38", cy: ".32", r: ".75" }, d);
    el("stop", { offset: "0", "stop-color": "#ffffff" }, light);
    el("stop", { offset: ".55", "stop-color": "#efe3cb" }, light);
    el("stop", { offset: "1", "stop-color": "#c9b48c" }, light);
    const dark = el("radialGradient", { id: "chk-dark", cx: ".38", cy: ".32", r: ".75" }, d);
    el("stop", { offset: "0", "stop-color": "#6a4436" }, dark);
    el("stop", { offset: ".55", "stop-color": "#3a231b" }, dark);
    el("stop", { offset: "1", "stop-color": "#150c08" }, dark);
    const shadow = el("filter", { id: "shadow", x: "-30%", y: "-30%", width: "160%", height: "160%" }, d);
    el("feDropShadow", { dx: 1.5, dy: 2.5, stdDeviation: 2, "flood-color": "#000", "flood-opacity": ".5" }, shadow);
    const arrow = el("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 5,
      markerHeight: 5, orient: "auto-start-reverse" }, d);
    el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#7fe3ff" }, arrow);
    const played = el("marker", { id: "arrowhead-played", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 5,
      markerHeight: 5, orient: "auto-start-reverse" }, d);
    el("path", { d: "M0,0 L10,5 L0,10 z", fill: REVIEW_COLORS.played }, played);
  }
  function palettes(state) {
    const you = state && state.you === 1 ? COLORS.dark : COLORS.light;
    return { you, computer: you === COLORS.light ? COLORS.dark : COLORS.light };
  }
  function checker(parent, x, y, palette, label, attrs, ring) {
    const g = el("g", Object.assign({ class: "checker" }, attrs || {}), parent);
    if (ring === "picked") el("circle", { cx: x, cy: y, r: G.R + 7, fill: "#ffe14a", "fill-opacity": ".45", class: "halo" }, g);
    el("circle", { cx: x, cy: y, r: G.R - 1, fill: palette.fill, stroke: ring ? "#ffd84a" : palette.stroke,
      "stroke-width": ring === "picked" ? 6 : ring ? 3.5 : 2, filter: "url(#shadow)" }, g);
    el("circle", { cx: x, cy: y, r: G.R - 9, fill: "none", stroke: palette.stroke, "stroke-opacity": ".35",
      "stroke-width": 1.5 }, g);
    if (label) text(g, x, y + 1, label, { "font-size": fs(22), "font-weight": "bold", fill: palette.text });
    return g;
  }
  function dieFace(parent, x, y, value, palette, attrs) {
    const g = el("g", Object.assign({ class: "die" }, attrs || {}), parent);
    el("rect", { x: x - 27, y: y - 27, width: 54, height: 54, rx: 9, fill: palette.die, stroke: "#000",
      "stroke-opacity": ".5", "stroke-width": 1.5, filter: "url(#shadow)" }, g);
    const o = 14;
    const spots = { 1: [[0, 0]], 2: [[-o, -o], [o, o]], 3: [[-o, -o], [0, 0], [o, o]],
      4: [[-o, -o], [o, -o], [-o, o], [o, o]], 5: [[-o, -o], [o, -o], [0, 0], [-o, o], [o, o]],
      6: [[-o, -o], [o, -o], [-o, 0], [o, 0], [-o, o], [o, o]] }[value] || [];
    for (const [dx, dy] of spots) el("circle", { cx: x + dx, cy: y + dy, r: 5.2, fill: palette.pip }, g);
    return g;
  }
  function cube(parent, x, y, value, size, attrs) {
    const g = el("g", Object.assign({ class: "cube" }, attrs || {}), parent);
    const s = Math.max(size, fs(26) * 1.7);
    el("rect", { x: x - s / 2, y: y - s / 2, width: s, height: s, rx: 8, fill: "#f7f2e6", stroke: "#2b2018",
      "stroke-width": 2, filter: "url(#shadow)" }, g);
    text(g, x, y + 1, String(value), { "font-size": fs(value >= 10 ? 22 : 26), "font-weight": "bold", fill: "#2b2018" });
    return g;
  }

  // -- the board model (what the board shows, also mid-animation) ------------------------------
  function copyBoard(b) {
    return { points: b.points.map((p) => ({ point: p.point, you: p.you, computer: p.computer })),
      bar: Object.assign({}, b.bar), off: Object.assign({}, b.off) };
  }
  function pipsOf(b) {
    let you = 25 * b.bar.you, computer = 25 * b.bar.computer;
    for (const p of b.points) { you += p.point * p.you; computer += (25 - p.point) * p.computer; }
    return { you, computer };
  }
  const at = (b, p) => b.points[p - 1];
  // A computer step [from, to, hit] (its own numbering: 25 its bar, 0 off) on the board, or undone.
  function computerStep(b, step, undo) {
    const [f, t, hit] = step;
    const s = undo ? -1 : 1;
    if (f === 25) b.bar.computer -= s; else at(b, 25 - f).computer -= s;
    if (t === 0) b.off.computer += s; else at(b, 25 - t).computer += s;
    if (hit) { at(b, 25 - t).you -= s; b.bar.you += s; }
  }
  // The board before the computer's plays of this answer.
  function unplay(board, played) {
    const b = copyBoard(board);
    for (let i = played.length - 1; i >= 0; i--) {
      const steps = played[i].steps;
      for (let j = steps.length - 1; j >= 0; j--) computerStep(b, steps[j], true);
    }
    return b;
  }
  function count(b, where, side) {
    if (where === 25) return b.bar[side];
    if (where === 0) return b.off[side];
    return at(b, where)[side];
  }

  // -- drawing the board ------------------------------------------------------------------------
  // view: {state, board, dice: [{value, x, side, used, tag}], movable: Set, picked, lit: Map(to -> kind),
  //        lifted: point, arrows: [[from, to]], hidden: {where, side}}
  function drawBoard(view) {
    const root = svg();
    measure();
    root.setAttribute("viewBox", `0 0 ${VW} ${G.H}`);
    root.replaceChildren();
    defs(root);
    const state = view.state;
    const pal = palettes(state);
    const b = view.board;

    el("rect", { x: 0, y: 0, width: VW, height: G.H, rx: 18, fill: "url(#wood)" }, root);
    el("rect", { x: rx(G.LEFT, G.BAR_L - G.LEFT), y: G.TOP, width: G.BAR_L - G.LEFT, height: 700, fill: "url(#felt)" }, root);
    el("rect", { x: rx(G.BAR_R, G.RIGHT - G.BAR_R), y: G.TOP, width: G.RIGHT - G.BAR_R, height: 700, fill: "url(#felt)" }, root);
    el("rect", { x: rx(G.BAR_L, G.BAR_R - G.BAR_L), y: G.TOP - 6, width: G.BAR_R - G.BAR_L, height: 712,
      fill: "#4a2a14", stroke: "#2e1a0c", "stroke-width": 2 }, root);
    el("rect", { x: rx(G.TRAY_X, G.TRAY_W), y: G.TOP, width: G.TRAY_W, height: 342, rx: 6, fill: "#2e1a0c",
      stroke: "#1b0f07", "stroke-width": 2 }, root);
    el("rect", { x: rx(G.TRAY_X, G.TRAY_W), y: G.MID + 8, width: G.TRAY_W, height: 342, rx: 6, fill: "#2e1a0c",
      stroke: "#1b0f07", "stroke-width": 2, "data-tray": "you" }, root);
    el("rect", { x: rx(8, 56), y: G.TOP, width: 56, height: 700, rx: 6, fill: "#2e1a0c", "fill-opacity": ".55" }, root);

    // the points, lit when a checker may land there
    for (let p = 1; p <= 24; p++) {
      const x = pointX(p);
      const base = isTop(p) ? G.TOP : G.BOTTOM;
      const tip = isTop(p) ? G.TOP + G.TRI : G.BOTTOM - G.TRI;
      const d = `M${x - G.W / 2 + 2},${base} L${x + G.W / 2 - 2},${base} L${x},${tip} Z`;
      el("path", { d, fill: p % 2 === 0 ? "#e8d3a7" : "#a0412d", stroke: "#00000033", "stroke-width": 1,
        class: "point", "data-point": p }, root);
      const kind = view.lit && view.lit.get(p);
      if (kind) {
        el("path", { d, class: `glow ${kind}`, "data-target": kind, "data-point": p,
          fill: kind === "single" ? "#ffe14a" : "#ff9d3a", "fill-opacity": kind === "single" ? ".55" : ".45",
          stroke: kind === "single" ? "#ffd000" : "#ff7a00", "stroke-width": 3,
          "stroke-dasharray": kind === "single" ? "none" : "10 6" }, root);
      }
      if (settings.pointNumbers) {
        text(root, x, isTop(p) ? G.F / 2 : G.H - G.F / 2, String(p),
          { "font-size": fs(13), fill: "#f1dcb5", "fill-opacity": ".9", class: "point-number" });
      }
    }

    const hidden = view.hidden;     // a checker in flight is not in its stack
    const shown = (where, side) => count(b, where, side) - (hidden && hidden.where === where && hidden.side === side ? 1 : 0);
    // checkers on the points
    for (let p = 1; p <= 24; p++) {
      for (const side of ["you", "computer"]) {
        const n = shown(p, side);
        const lifted = side === "you" && view.lifted === p;
        const top = Math.min(n, 5) - 1;
        for (let i = 0; i < Math.min(n, 5); i++) {
          const last = i === top;
          const s = spot(p, side, i);
          const ring = side === "you" && last ? (view.picked === p ? "picked" : view.movable && view.movable.has(p) ? "movable" : null) : null;
          const attrs = { "data-checker": side, "data-point": p, "data-index": i };
          if (ring) attrs["data-movable"] = "1";
          if (ring === "picked") attrs["data-picked"] = "1";
          const g = checker(root, s.x, s.y, pal[side], last && n > 5 ? String(n) : "", attrs, ring);
          if (last && lifted) g.setAttribute("opacity", ".35");
        }
      }
    }
    // the bar: yours below the middle, the computer's above
    for (const side of ["you", "computer"]) {
      const n = shown(25, side);
      for (let i = 0; i < Math.min(n, 4); i++) {
        const last = i === Math.min(n, 4) - 1;
        const s = spot(25, side, i);
        const ring = side === "you" && last ? (view.picked === 25 ? "picked" : view.movable && view.movable.has(25) ? "movable" : null) : null;
        const attrs = { "data-checker": side, "data-point": side === "you" ? 25 : "bar", "data-index": i };
        if (ring) attrs["data-movable"] = "1";
        const g = checker(root, s.x, s.y, pal[side], last && n > 4 ? String(n) : "", attrs, ring);
        if (last && side === "you" && view.lifted === 25) g.setAttribute("opacity", ".35");
      }
    }
    // borne-off trays: yours below, the computer's above
    for (const side of ["you", "computer"]) {
      const n = shown(0, side);
      for (let i = 0; i < n; i++) {
        const s = spot(0, side, i);
        el("rect", { x: s.x - G.TRAY_W / 2 + 4, y: s.y - 10, width: G.TRAY_W - 8, height: 20, rx: 4,
          fill: pal[side].fill, stroke: pal[side].stroke, "stroke-width": 1.5, "data-checker": side, "data-point": "off" }, root);
      }
    }
    const trayKind = view.lit && view.lit.get(0);
    if (trayKind) {
      el("rect", { x: rx(G.TRAY_X, G.TRAY_W), y: G.MID + 8, width: G.TRAY_W, height: 342, rx: 6,
        class: `glow ${trayKind}`, "data-target": trayKind, "data-point": 0,
        fill: trayKind === "single" ? "#ffe14a" : "#ff9d3a", "fill-opacity": ".45",
        stroke: trayKind === "single" ? "#ffd000" : "#ff7a00", "stroke-width": 3 }, root);
    }

    // the cube: top = the computer owns it, middle = centred, bottom = you own it
    const g = state.game, m = state.match;
    const c = g.cube;
    const crawford = m.crawford && !m.money && g.phase !== "over";
    if (!m.cube) {
      // seed 004's game: no doubling cube, none drawn
    } else if (!crawford) {
      const cy = c.owner === "you" ? G.BOTTOM - 45 : c.owner === "computer" ? G.TOP + 45 : G.MID;
      cube(root, mx(G.CUBE_X), cy, c.value === 1 && !c.owner ? 64 : c.value, 50,
        { "data-value": c.value, "data-owner": c.owner || "centre" });
    } else {
      text(root, mx(G.CUBE_X), G.MID, t("board.crawford"), { "font-size": fs(13), fill: "#ffd7a0", "letter-spacing": 2,
        transform: `rotate(-90 ${mx(G.CUBE_X)} ${G.MID})`, class: "crawford-mark" });
    }
    if (c.offered) {   // a double waiting for an answer, in the middle of the answering side's half
      const x = halfX(c.offered_by === "you" ? "left" : "right");
      cube(root, x, G.MID, c.offered, 68, { "data-offered": c.offered });
    }

    // dice
    const diceLayer = el("g", { id: "dice-layer" }, root);
    drawDice(diceLayer, view.dice || [], pal);

    if (g.resignation && g.phase === "resigned") {
      const x = halfX(g.resignation.by === "you" ? "right" : "left");
      const flag = el("g", { class: "flag" }, root);
      const w = fs(18) * 8;
      el("rect", { x: x - w / 2, y: G.MID - 28, width: w, height: 56, rx: 8, fill: "#f7f2e6", stroke: "#2b2018",
        "stroke-width": 2 }, flag);
      text(flag, x, G.MID, t("board.resigns", { level: t(RESIGN_KEYS[g.resignation.level]) }), { "font-size": fs(18), fill: "#2b2018" });
    }
    if (view.arrows && view.arrows.length) drawArrows(root, view);
    if (view.review) drawReviewArrows(root, view);
    if (g.outcome && view.final) {
      const banner = el("g", { class: "banner", "data-outcome": g.outcome.winner }, root);
      const size = fs(28);
      const pts = g.outcome.points;
      const words = t(g.outcome.winner === "you" ? "banner.you_win" : "banner.computer_wins", { n: pts });
      const w = Math.min(VW - 120, Math.max(460, words.length * size * (lang === "en" ? 0.56 : 1.05) + 60));
      const ms = state.match.score;
      const over = m.over ? t(m.winner === "you" ? "banner.you_win_match" : "banner.computer_wins_match",
        { you: ms.you, computer: ms.computer }) : null;
      const h = over ? size * 4.2 : size * 2.6;
      el("rect", { x: VW / 2 - w / 2, y: G.MID - h / 2, width: w, height: h, rx: 12, fill: "#000000c0",
        stroke: "#e0b84a", "stroke-width": 2 }, banner);
      text(banner, VW / 2, over ? G.MID - size * 0.8 : G.MID, words, { "font-size": size, fill: "#ffe9b0" });
      if (over) text(banner, VW / 2, G.MID + size * 0.9, over, { "font-size": fs(22), fill: "#e0b84a", "font-weight": "bold" });
    }

    // the places a click or a drop can name (for tests and assistive tools; events are the board's)
    const hits = el("g", { class: "hits" }, root);
    for (let p = 1; p <= 24; p++) {
      const y = isTop(p) ? G.TOP : G.MID;
      hitRect(hits, pointX(p) - G.W / 2, y, G.W, 350, p, view);
    }
    hitRect(hits, mx(G.BAR_X) - (G.BAR_R - G.BAR_L) / 2, G.MID, G.BAR_R - G.BAR_L, 350, 25, view);
    hitRect(hits, rx(G.TRAY_X - 8, VW - G.TRAY_X + 8), G.MID, VW - G.TRAY_X + 8, G.H - G.MID, 0, view);   // the tray to the frame's edge
  }

  function hitRect(parent, x, y, w, h, point, view) {
    const cls = ["hit"];
    if (view.movable && view.movable.has(point)) cls.push("src");
    const kind = view.lit && view.lit.get(point);
    if (kind) cls.push("dest", kind);
    const attrs = { x, y, width: w, height: h, fill: "#fff", "fill-opacity": 0, class: cls.join(" "), "data-point": point };
    if (kind) attrs["data-target"] = kind;
    el("rect", attrs, parent);
  }

  function drawDice(layer, dice, pal) {
    layer.replaceChildren();
    for (const d of dice) {
      const attrs = { "data-die-side": d.side, "data-value": d.value };
      if (d.used) attrs["data-used"] = "1";
      if (d.tag) attrs["data-tag"] = d.tag;
      const g = dieFace(layer, d.x, G.MID, d.value, pal[d.side], attrs);
      if (d.used) g.setAttribute("opacity", d.tag === "last" ? ".6" : ".35");
      if (d.caption) text(layer, d.x, G.MID + 27 + fs(13) * 0.9, t(d.caption === "you" ? "die.you" : "die.computer"),
        { "font-size": fs(13), fill: "#f1dcb5", class: "die-caption" });
    }
  }

  function drawArrows(root, view) {
    const layer = el("g", { id: "hint-arrows", class: "hint-arrows" }, root);
    drawArrowSet(layer, view.board, view.arrows, "you", { color: "#7fe3ff", marker: "arrowhead", cls: "hint-arrow",
      ghost: "hint-ghost", dash: "1 13", bend: 0.25, bendMax: 90, shift: 0, ring: G.R - 3 });
  }
  // A review: the play made and the best play from the same position, in two colours
  // (the best one dotted as the hint's, the one made dashed), each bowed a little
  // differently so that a move both share shows twice.
  function drawReviewArrows(root, view) {
    for (const set of view.review.sets) {
      const played = set.name === "played";
      const layer = el("g", { id: `review-${set.name}`, class: `review-arrows ${set.name}`, "data-set": set.name }, root);
      drawArrowSet(layer, view.board, set.moves, view.review.side, {
        color: REVIEW_COLORS[played ? "played" : "best"], marker: played ? "arrowhead-played" : "arrowhead",
        cls: "review-arrow", ghost: "review-ghost", dash: played ? "12 9" : "1 13",
        bend: played ? 0.3 : 0.14, bendMax: played ? 110 : 50, shift: played ? -7 : 7, ring: played ? G.R - 2 : G.R - 9 });
    }
  }
  // The arrows of a play's steps ([from, to], in the numbering of `side`, the one
  // playing: 25 its bar, 0 off) over `board`, each from the top checker of its point.
  function drawArrowSet(layer, board, moves, side, o) {
    const b = copyBoard(board);
    const other = side === "you" ? "computer" : "you";
    const ours = (p) => (side === "you" || p === 25 || p === 0 ? p : 25 - p);     // the point as drawn (your numbering)
    for (const [f0, t0] of moves) {
      const f = ours(f0), t = ours(t0);
      const n = count(b, f, side);
      if (n <= 0) continue;
      const a = spot(f, side, n - 1);
      if (f === 25) b.bar[side] -= 1; else at(b, f)[side] -= 1;
      let z;
      if (t === 0) { z = spot(0, side, b.off[side]); b.off[side] += 1; } else {
        const p = at(b, t);
        if (p[other] === 1) { p[other] = 0; b.bar[other] += 1; }     // a hit: it lands on the blot's spot
        z = spot(t, side, p[side]);
        p[side] += 1;
      }
      const dx = z.x - a.x, dy = z.y - a.y;
      const len = Math.hypot(dx, dy) || 1;
      const nx = -dy / len, ny = dx / len;
      const a1 = { x: a.x + nx * o.shift, y: a.y + ny * o.shift }, z1 = { x: z.x + nx * o.shift, y: z.y + ny * o.shift };
      const midx = (a1.x + z1.x) / 2, midy = (a1.y + z1.y) / 2;
      const bend = Math.min(o.bendMax, len * o.bend);
      // bow the arrow toward the middle of the board, never over its edge
      const c1 = { x: midx + nx * bend, y: midy + ny * bend };
      const c2 = { x: midx - nx * bend, y: midy - ny * bend };
      const { x: cx, y: cy } = Math.abs(c1.y - G.MID) <= Math.abs(c2.y - G.MID) ? c1 : c2;
      el("path", { d: `M${a1.x},${a1.y} Q${cx},${cy} ${z1.x},${z1.y}`, fill: "none", stroke: o.color, "stroke-width": 6,
        "stroke-linecap": "round", "stroke-dasharray": o.dash, "marker-end": `url(#${o.marker})`, class: o.cls,
        "data-from": f0, "data-to": t0 }, layer);
      el("circle", { cx: z.x, cy: z.y, r: o.ring, fill: "none", stroke: o.color, "stroke-width": 3,
        "stroke-dasharray": "6 6", class: o.ghost, "data-point": t }, layer);
    }
  }

  // -- the view of a state -----------------------------------------------------------------------
  function currentLog(state) {
    return state.log.length ? state.log[state.log.length - 1] : { lines: [] };
  }
  function isOpeningPlay(state) {
    const g = state.game;
    if (!g.opening.length || g.phase !== "play") return false;
    return !currentLog(state).lines.some((l) => l.player && l.code !== "rolled");
  }
  function lastComputerDice(state) {      // the computer's last roll in this game, if it was the last
    const lines = currentLog(state).lines;
    for (let i = lines.length - 1; i >= 0; i--) {
      const l = lines[i];
      if (l.params && l.params.dice && (l.code === "play" || l.code === "no_move")) return l.player === "computer" ? l.params.dice : null;
    }
    return null;
  }
  function diceOf(state) {
    const g = state.game;
    const out = [];
    if (g.phase === "opening" && g.opening.length) {          // a tie: shown before the roll again
      const last = g.opening[g.opening.length - 1];
      out.push({ side: "you", value: last.you, x: halfX("left"), tag: "opening", caption: "you" });
      out.push({ side: "computer", value: last.computer, x: halfX("right"), tag: "opening", caption: "computer" });
      return out;
    }
    if (g.dice && g.phase === "play") {
      const mine = g.on_roll === "you";
      const side = mine ? "you" : "computer";
      const values = g.dice[0] === g.dice[1] ? [g.dice[0], g.dice[0]] : g.dice.slice();
      const used = usedDice(values, state.moves);
      if (isOpeningPlay(state)) {
        const th = g.opening[g.opening.length - 1];
        const uy = usedDice([th.you, th.computer], state.moves);
        out.push({ side: "you", value: th.you, x: halfX("left"), used: uy[0], tag: "opening", caption: "you" });
        out.push({ side: "computer", value: th.computer, x: halfX("right"), used: uy[1], tag: "opening", caption: "computer" });
        return out;
      }
      const cx = halfX(mine ? "right" : "left");
      out.push({ side, value: values[0], x: cx - 36, used: used[0] });
      out.push({ side, value: values[1], x: cx + 36, used: used[1] });
      return out;
    }
    if (g.phase === "turn" && g.turn === "you") {
      const last = lastComputerDice(state);
      if (last) {
        const cx = halfX("left");
        out.push({ side: "computer", value: last[0], x: cx - 36, used: true, tag: "last" });
        out.push({ side: "computer", value: last[1], x: cx + 36, used: true, tag: "last" });
      }
    }
    return out;
  }
  function usedDice(values, moves) {
    if (!moves) return values.map(() => false);
    const left = moves.dice_left.slice();
    if (values[0] === values[1]) {
      const n = left.length;
      return [n < 2, n < 1];
    }
    return values.map((v) => {
      const i = left.indexOf(v);
      if (i >= 0) { left.splice(i, 1); return false; }
      return true;
    });
  }
  function sources(state) {
    const m = state && state.moves;
    if (!m) return new Set();
    return new Set(Object.keys(m.paths || m.destinations).map(Number));
  }
  function targets(state, from) {
    const m = state && state.moves;
    const lit = new Map();
    if (!m || from === null || from === undefined) return lit;
    const single = m.destinations[String(from)] || [];
    const paths = (m.paths || {})[String(from)] || {};
    for (const t of Object.keys(paths).map(Number)) lit.set(t, single.includes(t) && paths[t].length === 1 ? "single" : "combined");
    for (const t of single) if (!lit.has(t)) lit.set(t, "single");
    return lit;
  }
  function arrowsOf(state) {
    if (!hintView || !state.moves || state.moves.steps.length) return null;
    const h = hintView.hint;
    if (!h || h.kind !== "play" || !h.plays.length) return null;
    const p = h.plays[Math.min(hintView.index, h.plays.length - 1)];
    return p.moves || [];
  }
  function viewOf(state, extra) {
    return Object.assign({
      state, board: state.board, dice: diceOf(state), final: true,
      movable: state.moves ? sources(state) : new Set(),
      picked: selected, lit: drag ? targets(state, drag.from) : targets(state, selected),
      lifted: drag ? drag.from : null, arrows: arrowsOf(state),
    }, extra || {});
  }

  // -- animations --------------------------------------------------------------------------------
  function visible() { return document.visibilityState !== "hidden"; }
  function animating() { return pace() !== "instant" && visible(); }

  async function tween(node, a, z, ms) {
    const start = performance.now();
    for (;;) {
      const t = Math.min(1, (performance.now() - start) / ms);
      const e = t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2;
      const lift = Math.sin(Math.PI * t) * 18;
      node.setAttribute("transform", `translate(${(z.x - a.x) * e},${(z.y - a.y) * e - lift})`);
      if (t >= 1) return;
      await frame();
    }
  }
  async function tumble(view, which, ms) {      // the dice in `which` (indices) rolling for ms
    const start = performance.now();
    const pal = palettes(view.state);
    const layer = $("dice-layer");
    if (!layer) return;
    Sound.play("dice");
    while (performance.now() - start < ms) {
      const shown = view.dice.map((d, i) => (which.includes(i) ? Object.assign({}, d, { value: 1 + Math.floor(Math.random() * 6), caption: d.caption }) : d));
      drawDice(layer, shown, pal);
      await sleep(70);
    }
    drawDice(layer, view.dice, pal);
  }
  function noteOpening(th) {
    const shown = document.body.dataset.openingShown ? document.body.dataset.openingShown.split(" ") : [];
    shown.push(`${th.you}-${th.computer}`);
    document.body.dataset.openingShown = shown.join(" ");
  }

  async function animateAnswer(state, before, body) {
    const p = PACES[pace()];
    const sameGame = before && before.id === state.id && before.match.game === state.match.game;
    const throws = sameGame ? state.game.opening.slice(before.game.opening.length) :
      (body.action === "roll" ? state.game.opening : []);
    const played = state.played || [];
    for (const th of throws) noteOpening(th);
    const board = unplay(state.board, played);
    document.body.dataset.animated = "0";
    if (!animating()) {
      if (played.some((pl) => pl.steps.some((s) => s[2]))) Sound.play("hit");
      else if (played.length) Sound.play("checker");
      else if (body.action === "roll" && state.game.dice) Sound.play("dice");
      return;
    }
    $("controls").classList.add("busy");      // nothing to press meanwhile (render shows the controls again)
    document.body.dataset.state = "computer";
    const shell = Object.assign({}, state, { game: Object.assign({}, state.game, { outcome: null }) });
    const base = { state: shell, board, final: false, dice: [] };
    // the opening throws, each side's die on its side
    for (const th of throws) {
      const view = Object.assign({}, base, { dice: [
        { side: "you", value: th.you, x: halfX("left"), tag: "opening", caption: "you" },
        { side: "computer", value: th.computer, x: halfX("right"), tag: "opening", caption: "computer" }] });
      drawBoard(view);
      $("status").textContent = t("status.opening_rolling");
      await tumble(view, [0, 1], p.roll);
      $("status").textContent = t(th.you === th.computer ? "status.opening_tie_again" : th.you > th.computer ?
        "note.opening_you_start" : "note.opening_computer_starts", { you: th.you, computer: th.computer });
      if (th.you === th.computer) {
        const layer = $("dice-layer");
        const size = fs(22), w = size * 9, y = G.MID;          // between the two dice
        const note = el("g", { class: "tie-note" }, layer);
        el("rect", { x: VW / 2 - w / 2, y: y - size, width: w, height: size * 2, rx: 10, fill: "#000000b0",
          stroke: "#e0b84a", "stroke-width": 2 }, note);
        text(note, VW / 2, y, t("board.tie", { you: th.you, computer: th.computer }), { "font-size": size, fill: "#ffe9b0" });
        await sleep(p.tie);
      } else {
        await sleep(p.after * 2);
      }
    }
    // your roll when you cannot move
    const stuck = (state.notes || []).find((n) => n.code === "you_cannot_move");
    if (stuck) {
      const cx = halfX("right");
      const view = Object.assign({}, base, { dice: [
        { side: "you", value: stuck.params.dice[0], x: cx - 36 }, { side: "you", value: stuck.params.dice[1], x: cx + 36 }] });
      drawBoard(view);
      await tumble(view, [0, 1], p.roll);
      $("status").textContent = t("status.you_cannot_move");
      await sleep(p.nomove);
    } else if (body.action === "roll" && state.game.phase === "play" && state.game.on_roll === "you" && !throws.length) {
      const view = viewOf(state, { final: false });
      drawBoard(view);
      await tumble(view, [0, 1], Math.min(p.roll, 450));     // your own roll: short, you are waiting to move
    }
    // the computer's plays, checker by checker
    let opening = throws.length > 0 && played.length > 0;
    for (const pl of played) {
      const began = performance.now();
      let dice;
      if (opening) {
        const th = throws[throws.length - 1];
        dice = [{ side: "you", value: th.you, x: halfX("left"), tag: "opening", caption: "you", v: th.you },
          { side: "computer", value: th.computer, x: halfX("right"), tag: "opening", caption: "computer", v: th.computer }];
      } else {
        const values = pl.dice[0] === pl.dice[1] ? [pl.dice[0], pl.dice[0]] : pl.dice.slice();
        const cx = halfX("left");
        dice = [{ side: "computer", value: values[0], x: cx - 36 }, { side: "computer", value: values[1], x: cx + 36 }];
      }
      let view = Object.assign({}, base, { board, dice });
      drawBoard(view);
      if (!opening) await tumble(view, [0, 1], p.roll);
      else await sleep(p.gap);
      $("status").textContent = pl.steps.length ? t("status.computer_plays", { dice: rollDash(pl.dice), play: pl.play }) :
        t("note.computer_cannot_move", { dice: rollDash(pl.dice) });
      const left = pl.dice[0] === pl.dice[1] ? [pl.dice[0], pl.dice[0], pl.dice[0], pl.dice[0]] : pl.dice.slice();
      for (const step of pl.steps) {
        const [f, t, hit] = step;
        const from = f === 25 ? 25 : 25 - f, to = t === 0 ? 0 : 25 - t;
        const a = spot(from, "computer", count(board, from, "computer") - 1);
        const land = to === 0 ? board.off.computer : at(board, to).computer;
        view = Object.assign({}, base, { board, dice: markUsed(dice, left, f, t, pl.dice), hidden: { where: from, side: "computer" } });
        drawBoard(view);
        const z = spot(to, "computer", hit ? 0 : land);
        const pal = palettes(state);
        const flying = checker(svg(), a.x, a.y, pal.computer, "", { class: "checker flying", "data-checker": "computer" });
        await tween(flying, a, z, p.step);
        computerStep(board, step, false);
        document.body.dataset.animated = String(Number(document.body.dataset.animated || 0) + 1);
        Sound.play(hit ? "hit" : "checker");
        drawBoard(Object.assign({}, base, { board, dice: view.dice }));
        await sleep(p.gap);
      }
      await sleep(p.after);
      // a computer turn lasts as long as the pace says, however few its checkers
      const spent = performance.now() - began;
      if (spent < p.turn[0]) await sleep(p.turn[0] - spent);
      opening = false;
    }
  }
  function markUsed(dice, left, f, t, rolled) {     // the dice with those used so far dimmed
    const d = (f === 25 ? 25 : f) - t;
    let i = left.indexOf(d);
    if (i < 0) { const bigger = left.filter((v) => v > d); i = bigger.length ? left.indexOf(Math.min(...bigger)) : 0; }
    left.splice(i, 1);
    const out = dice.map((x) => Object.assign({}, x));
    if (rolled[0] === rolled[1]) {
      if (left.length < 2) out[0].used = true;
      if (left.length < 1) out[1].used = true;
    } else {
      const remaining = left.slice();
      for (const x of out) {
        const v = x.v !== undefined ? x.v : x.value;
        const k = remaining.indexOf(v);
        if (k >= 0) remaining.splice(k, 1); else x.used = true;
      }
    }
    return out;
  }

  // -- a state on the page ---------------------------------------------------------------------------
  async function present(state, before, body) {
    review = null;              // a new state: the board is the game's again
    if (before && before.id === state.id && body.action === "move") {
      const hit = state.board.bar.computer > before.board.bar.computer;
      Sound.play(hit ? "hit" : "checker");
    }
    if (body.action !== "load" && body.action !== "new") await animateAnswer(state, before, body);
    game = state;
    window.backgammonState = state;
    if (state.hint) hintView = { hint: state.hint, index: 0 };
    render();
    await persist(state);
  }

  function render() {
    if (!game) return;
    const state = game;
    if (selected !== null && !sources(state).has(selected)) selected = null;
    if (review) drawBoard(reviewView(state, review.entry));
    else drawBoard(viewOf(state));
    svg().style.touchAction = state.moves && !review ? "none" : "pan-y";     // a swipe on the board scrolls unless checkers can move
    const g = state.game, a = state.actions;
    document.body.dataset.phase = g.phase;
    document.body.dataset.state = pageState(state);
    document.body.dataset.gameId = state.id;
    scoreboard(state);
    strips(state, review ? reviewInfo(state, review.entry) : null);
    drawLog(state);
    drawAnalysis(state);
    const [statusKey, statusParams, keys] = status(state);
    $("status").replaceChildren(statusKey ? t(statusKey, statusParams) : "", ...keyHint(keys));
    $("status").dataset.message = statusKey || "";
    $("said").textContent = (state.notes || []).map(noteText).join(" ");
    $("controls").classList.remove("busy");
    for (const btn of document.querySelectorAll(".controls button[data-action]")) {
      const name = btn.dataset.action;
      btn.hidden = !a.includes(name);
    }
    const m = state.moves;
    const auto = settings.autoEnd && m && Object.keys(m.destinations).length === 0;
    $("btn-commit").hidden = !a.includes("commit") || auto;
    $("btn-undo").textContent = t(m && m.steps.length ? "action.undo_move" : "action.undo_play");
    $("btn-newmatch").hidden = !state.match.over;
    const fresh = analysis && analysis.key === historyKey(state);
    $("btn-analyse").hidden = !analysable(state) || !!fresh;
    $("btn-analyse").textContent = t(analysis ? "action.analyse_again" : "action.analyse");
    $("resign-group").hidden = !a.includes("resign");
    fillResign(state);
    $("notation").hidden = !a.includes("play");
    $("notation").closest(".panel").hidden = !a.includes("play");
    if (hintView) drawHint(hintView.hint);
    else $("hint").replaceChildren(mutedHint());
    $("save-mat").href = `/api/games/${state.id}/mat`;
    $("save-sgf").href = `/api/games/${state.id}/sgf`;
  }

  function pageState(state) {
    const g = state.game, m = state.match;
    if (m.over) return "match-over";
    if (g.phase === "over") return "game-over";
    if (g.phase === "opening") return "roll";
    if (g.turn !== "you") return "computer";
    if (g.phase === "doubled" || g.phase === "beavered") return "answer-double";
    if (g.phase === "resigned") return "answer-resignation";
    if (g.phase === "turn") return "roll";
    if (g.phase === "play") return state.moves && state.moves.complete ? "end-turn" : "move";
    return g.phase;
  }

  // The keys that do something, after a message, where there is a keyboard
  // (hidden on touch-only screens by the stylesheet: .keyhint).
  function keyHint(key) {
    if (!key) return [];
    const span = document.createElement("span");
    span.className = "keyhint";
    span.textContent = t(key);
    return [" ", span];
  }
  function mutedHint() {
    const p = muted(t("hint.ask"));
    p.append(...keyHint("keys.hint"));
    return p;
  }
  function noteParams(params) {
    const p = Object.assign({}, params || {});
    if (Array.isArray(p.dice)) p.dice = rollDash(p.dice);
    if (p.level !== undefined && RESIGN_KEYS[p.level]) p.level = t(RESIGN_KEYS[p.level]);
    if (p.ending !== undefined && ENDING_KEYS[p.ending]) p.ending = t(ENDING_KEYS[p.ending]);
    if (p.points !== undefined) p.n = p.points;
    if ("play" in p) p.play = noMove(p.play);
    return p;
  }
  const noteText = (n) => t(`note.${n.code}`, noteParams(n.params));
  // The resignation's choices, each with the points it gives the computer at this cube.
  function fillResign(state) {
    const select = $("resign-level");
    const value = select.value || "1";
    const cube = state.game.cube.value || 1;
    select.replaceChildren(...[1, 2, 3].map((level) => {
      const o = document.createElement("option");
      o.value = String(level);
      o.textContent = t("resign.option", { level: t(RESIGN_KEYS[level]), n: level * cube });
      return o;
    }));
    select.value = value;
  }

  function muted(content) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = content;
    return p;
  }

  // The status line: [message key, its params, the key hint's key (shown where there is a keyboard)].
  function status(state) {
    const g = state.game, m = state.match, a = state.actions;
    if (m.over) return [m.winner === "you" ? "status.you_won_match" : "status.computer_won_match", {}, null];
    if (g.phase === "over") {
      const o = g.outcome;
      const params = { n: o.points, ending: t(ENDING_KEYS[o.ending] || "ending.single") };
      return [o.winner === "you" ? "status.you_win_game" : "status.computer_wins_game", params,
        a.includes("next") ? "keys.next" : null];
    }
    if (g.phase === "opening") {
      if (g.opening.length) {
        const last = g.opening[g.opening.length - 1];
        return ["status.opening_tie", { you: last.you, computer: last.computer }, "keys.space"];
      }
      return ["status.opening_roll", {}, "keys.space"];
    }
    if (g.turn !== "you") return ["status.computer_thinking", {}, null];
    if (g.phase === "doubled") return ["status.computer_doubles", { value: g.cube.offered }, "keys.take_pass"];
    if (g.phase === "resigned") return ["status.computer_resigns", { level: t(RESIGN_KEYS[g.resignation.level]) }, "keys.accept_reject"];
    if (g.phase === "turn") return a.includes("double") ? ["status.your_turn_double", {}, "keys.roll_double"] : ["status.your_turn", {}, "keys.space"];
    if (g.phase === "play") {
      const moves = state.moves;
      if (moves && moves.complete && Object.keys(moves.destinations).length === 0) return ["status.end_turn", {}, "keys.end_undo"];
      if (moves && moves.complete) return ["status.end_or_move", {}, "keys.end_undo"];
      const dice = rollDash(g.dice);
      return [isOpeningPlay(state) ? "status.move_opening" : "status.move", { dice }, null];
    }
    return [null, {}, null];
  }

  function scoreboard(state) {
    const m = state.match;
    const box = $("scoreboard");
    box.replaceChildren();
    const add = (cls, content) => { const s = document.createElement("span"); s.className = cls; s.textContent = content; box.appendChild(s); return s; };
    const kind = add("kind", "");
    const long = document.createElement("span");
    long.className = "long";
    long.textContent = t(formatKey(m, "long"), { length: m.length, game: m.game });
    const short = document.createElement("span");
    short.className = "short";
    short.textContent = t(formatKey(m, "short"), { length: m.length, game: m.game });
    kind.append(long, short);
    const score = add("score", "");
    const you = document.createElement("span"); you.className = "long"; you.textContent = t("score.you");
    const comp = document.createElement("span"); comp.className = "long"; comp.textContent = t("score.computer");
    score.append(you, document.createTextNode(` ${m.score.you}–${m.score.computer} `), comp);
    if (m.cube && m.crawford && !m.money) add("tag", t("tag.crawford")).dataset.tag = "crawford";
    else if (m.cube && m.post_crawford) add("tag", t("tag.post_crawford")).dataset.tag = "post-crawford";
  }
  // What is being played: a single game, a match to N, a money session (the catalog's key).
  function formatKey(m, size) {
    const keys = FORMAT_KEYS[m.money ? "money" : m.length === 1 ? "single" : "match"];
    return keys[size === "long" ? 0 : 1];
  }

  function strips(state, reviewing) {     // reviewing: the analysed position's pips, cube and side to act
    const pal = palettes(state);
    const pips = reviewing ? pipsOf(reviewing.board) : state.board.pips;
    for (const side of ["you", "computer"]) {
      const strip = $(`strip-${side}`);
      strip.querySelector(".swatch").className = `swatch ${pal[side].css}`;
      strip.querySelector(".who").textContent = side === "you" ? t("strip.you")
        : t("strip.computer", { level: LEVEL_KEYS[state.level] ? t(LEVEL_KEYS[state.level]) : state.level });
      const show = side === "you" || settings.bothPips;
      strip.querySelector(".pips").textContent = show ? t("strip.pips", { n: pips[side] }) : "";
      strip.dataset.pips = show ? String(pips[side]) : "";
      const g = state.game;
      let note = "";
      const cubeNow = reviewing ? reviewing.cube : g.cube;
      const turn = reviewing ? reviewing.side : g.turn;
      const notes = [];
      if (reviewing) { if (turn === side) notes.push(t(reviewing.entry.kind === "take" ? "strip.to_answer" : "strip.on_roll")); }
      else if (g.phase !== "over" && g.phase !== "opening" && g.turn === side) notes.push(t(side === "you" ? "strip.your_turn" : "strip.to_play"));
      if (cubeNow.owner === side) notes.push(t("strip.owns_cube", { value: cubeNow.value }));
      strip.querySelector(".note").textContent = notes.join(" · ");
      strip.classList.toggle("active", turn === side && (reviewing || g.phase !== "over"));
    }
  }

  function drawLog(state) {
    const list = $("log");
    const key = JSON.stringify(state.log);
    const keep = key === logKey ? list.scrollTop : null;      // the same log: it stays where it was scrolled
    logKey = key;
    list.replaceChildren();
    const attached = attachAnalysis(state);
    let marked = 0;
    for (const lg of state.log) {
      const head = document.createElement("li");
      head.className = "game-head";
      const tag = !state.match.cube || state.match.money ? "" : lg.crawford ? "crawford" : lg.post_crawford ? "post" : "";
      head.textContent = t(tag === "crawford" ? "log.game_head_crawford" : tag === "post" ? "log.game_head_post_crawford" : "log.game_head",
        { game: lg.game, you: lg.score.you, computer: lg.score.computer });
      if (tag) head.dataset.tag = tag;
      list.appendChild(head);
      const table = document.createElement("table");
      table.className = "turns";
      const headRow = table.insertRow();
      for (const h of ["", t("log.you"), t("log.computer")]) { const th = document.createElement("th"); th.textContent = h; headRow.appendChild(th); }
      let row = null, n = 0;
      const newRow = () => { n += 1; row = { tr: table.insertRow(), you: null, computer: null }; const c = row.tr.insertCell(); c.className = "n"; c.textContent = `${n}`; row.you = row.tr.insertCell(); row.computer = row.tr.insertCell(); row.filled = {}; };
      for (const line of lg.lines) {
        if (!line.player) {
          const tr = table.insertRow();
          tr.className = "note";
          const c = tr.insertCell();
          c.colSpan = 3;
          c.textContent = logText(line);
          row = null;
          continue;
        }
        const p = line.player;
        if (!row || row.filled[p] || (p === "you" && row.filled.computer)) newRow();
        row.filled[p] = true;
        const span = document.createElement("span");
        span.className = "line";
        span.textContent = logText(line);
        if (line.action) { span.dataset.game = lg.game; span.dataset.action = line.action; }
        const entries = line.action ? attached.get(`${lg.game}:${line.action}`) : null;
        if (entries) marked += markLine(span, entries, n);
        if (row[p].childNodes.length) row[p].append("; ");
        row[p].append(span);
        row[p].className = p;
      }
      const li = document.createElement("li");
      li.appendChild(table);
      list.appendChild(li);
    }
    if (keep === null) list.scrollTop = list.scrollHeight;
    else list.scrollTop = keep;
    const shown = list.querySelector(".line.reviewed");      // the line on the board: in the log's view
    if (shown) {
      const r = shown.getBoundingClientRect(), box = list.getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.bottom) list.scrollTop += r.top - box.top - box.height / 2;
    }
    if (analysis) document.body.dataset.analysisMarked = String(marked);
  }

  // A line of the move log in the player's language: a roll and its play in
  // notation ("43: 13/9 13/10", the larger die first), or the catalog's words.
  function logText(line) {
    const p = line.params || {};
    if (line.code === "play") return `${rollText(p.dice)}: ${p.play}`;
    if (line.code === "no_move") return `${rollText(p.dice)}: ${t("log.no_move")}`;
    if (line.code === "set_board" || line.code === "set_board_only") return `${rollText(p.dice)}: ${t(`log.${line.code}`, noteParams(p))}`;
    if (line.code === "rolled") return `${rollText(p.dice)}: …`;
    if (line.code === "outcome") return t(p.winner === "you" ? "log.outcome_you" : "log.outcome_computer", noteParams(p));
    return t(`log.${line.code}`, noteParams(p));
  }

  function drawHint(h) {
    const box = $("hint");
    box.replaceChildren();
    const f = (x) => (x >= 0 ? "+" : "") + x.toFixed(3);
    const pct = (x) => (100 * x).toFixed(1) + "%";
    if (h.kind === "play") {
      const table = document.createElement("table");
      const head = table.createTHead().insertRow();
      for (const k of ["hint.play", "hint.equity", "hint.diff", "hint.win", "hint.gammon"]) { const th = document.createElement("th"); th.textContent = t(k); head.appendChild(th); }
      const body = table.createTBody();
      h.plays.forEach((p, i) => {
        const tr = body.insertRow();
        tr.className = (i === 0 ? "best " : "") + "pick" + (hintView && hintView.index === i ? " shown" : "");
        for (const v of [noMove(p.play), f(p.equity), i === 0 ? "" : f(p.difference),
          pct(p.probabilities.win), pct(p.probabilities.win_gammon)]) {
          tr.insertCell().textContent = v;
        }
        tr.title = t("hint.row_title");
        tr.addEventListener("click", () => {
          $("notation-text").value = p.play;
          if (hintView) hintView.index = i;
          render();
          bump();
        });
      });
      box.appendChild(table);
      const note = document.createElement("p");
      note.className = "muted small";
      // the equity the plays are ranked by: cubeful, in a match at the score (as the analysis grades)
      note.textContent = t(game && game.moves && game.moves.steps.length ? "hint.note_from_start" : "hint.note_arrows",
        { n: h.count, ply: h.ply, measure: t(h.match ? (h.cube ? "hint.measure_match" : "hint.measure_match_nocube")
                                                      : (h.cube ? "hint.measure_money" : "hint.measure_cubeless")) });
      box.appendChild(note);
    } else {
      const p = document.createElement("p");
      const strong = document.createElement("strong");
      strong.textContent = t("hint.advice", { action: cubeWord(h.kind === "take" ? h.take : h.action) });
      p.appendChild(strong);
      box.appendChild(p);
      const table = document.createElement("table");
      table.className = "cube-table";
      for (const [k, v] of [["cube.no_double", h.no_double], ["cube.double_take", h.double_take], ["cube.double_pass", h.double_pass]]) {
        const tr = table.insertRow();
        tr.insertCell().textContent = t(k);
        tr.insertCell().textContent = f(v);
      }
      box.appendChild(table);
      if (!h.can_double && h.reason_code && h.kind === "cube") {
        box.appendChild(Object.assign(muted(t(`error.${h.reason_code}`, { limit: game ? game.game.cube.value : "" })), { className: "muted small" }));
      }
    }
  }

  // -- the analysis ----------------------------------------------------------------------------------
  // "Analyse" grades every decision of the match so far (GET /api/games/{id}/analysis):
  // a summary for both sides, the marked decisions in the move log and in a list; a
  // marked decision clicked is drawn on the board ("reviewing": the game itself is not
  // touched) with the play made and the best play as arrows, until "Back to the game" or Esc.
  function historyKey(state) {      // what an analysis covers: the match's history so far
    return state.id + "|" + state.log.map((lg) => `${lg.game}.${lg.lines.reduce((a, l) => Math.max(a, l.action || 0), 0)}`).join(",");
  }
  function analysable(state) {      // a game over; in a match, also the games so far
    return state.game.phase === "over" || state.log.length > 1;
  }
  function forgetAnalysis() {
    analysis = null;
    review = null;
    window.backgammonAnalysis = null;
    for (const k of ["analysis", "analysisMarked", "reviewing", "reviewGame", "reviewAction"]) delete document.body.dataset[k];
  }
  const signed = (x) => (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(3);
  const lost = (x) => "−" + Math.abs(x).toFixed(3);
  const ordinal = (e) => e.game * 1e6 + e.action;
  const stepsKey = (moves) => JSON.stringify((moves || []).map((m) => m.join("/")).sort());
  function samePlay(e) { return e.played === e.best || stepsKey(e.played_moves) === stepsKey(e.best_moves); }
  function markedEntries() {
    if (!analysis) return [];
    return analysis.data.decisions.filter((e) => MARKS[e.skill]).sort((a, b) => ordinal(a) - ordinal(b));
  }
  function worst(list) { return list.length ? list.reduce((a, b) => (b.error > a.error ? b : a)) : null; }

  // "game:action" of a log line -> the analysed decisions it tells.  A decision with no
  // line of its own (not doubling) goes with that player's next line (the roll's play).
  function attachAnalysis(state) {
    const out = new Map();
    if (!analysis || analysis.id !== state.id) return out;
    const games = new Map(state.log.map((lg) => [lg.game, lg.lines]));
    for (const e of analysis.data.decisions) {
      const lines = games.get(e.game) || [];
      const line = lines.find((l) => l.action === e.action && l.player === e.who) ||
        lines.find((l) => l.player === e.who && l.action > e.action);
      if (!line) continue;
      const k = `${e.game}:${line.action}`;
      if (!out.has(k)) out.set(k, []);
      out.get(k).push(e);
    }
    return out;
  }
  const skillWord = (skill) => (SKILL_KEYS[skill] ? t(SKILL_KEYS[skill]) : t("skill.none"));
  function describe(e) {
    if (e.kind === "play") return t("analysis.describe_play", { skill: skillWord(e.skill), lost: lost(e.error), best: noMove(e.best) });
    return t("analysis.describe_cube", { skill: skillWord(e.skill), lost: lost(e.error), done: cubeWord(e.done), proper: cubeWord(e.proper) });
  }
  // A line of the move log with its analysis: a mark per doubtful play, error and
  // blunder ("?!", "?", "??" and the equity lost); a click shows it on the board.
  function markLine(span, entries, row) {
    for (const e of entries) e.row = row;
    const marked = entries.filter((e) => MARKS[e.skill]);
    const target = worst(marked) || entries.find((e) => e.kind === "play") || entries[0];
    span.classList.add("analysed");
    span.tabIndex = 0;
    span.setAttribute("role", "button");
    span.title = [...marked.map(describe), t("analysis.show_on_board")].join(t("analysis.separator"));
    span.addEventListener("click", () => startReview(target));
    if (review && entries.includes(review.entry)) span.classList.add("reviewed");
    for (const e of marked) {
      span.classList.add("marked");
      const m = document.createElement("span");
      m.className = `mark m-${e.skill}`;
      m.dataset.skill = e.skill;
      m.textContent = e.kind === "play" ? `${MARKS[e.skill]} ${lost(e.error)}` : t("analysis.cube_mark", { mark: MARKS[e.skill], lost: lost(e.error) });
      span.append(" ", m);
    }
    return marked.length;
  }

  function analyse() {
    if (!game || pending) return;
    const state = game;
    const btn = $("btn-analyse");
    run(async () => {
      document.body.dataset.analysis = "loading";
      btn.disabled = true;
      btn.setAttribute("aria-busy", "true");
      btn.textContent = t("action.analysing");
      try {
        const data = await api("GET", `/api/games/${encodeURIComponent(state.id)}/analysis?ply=0`);
        analysis = { data, key: historyKey(state), id: state.id, built: null };
        review = null;
        window.backgammonAnalysis = data;
        document.body.dataset.analysis = "ready";
      } catch (e) {
        document.body.dataset.analysis = analysis ? "ready" : "error";
        throw e;
      } finally {
        btn.disabled = false;
        btn.removeAttribute("aria-busy");
        btn.textContent = t(analysis ? "action.analyse_again" : "action.analyse");
      }
      render();
      const panel = $("analysis").getBoundingClientRect();      // a narrow screen: the summary is under the log
      if (panel.top > innerHeight - 120) $("analysis").scrollIntoView({ block: "start" });
    });
  }

  function drawAnalysis(state) {
    const a = analysis && analysis.id === state.id ? analysis : null;
    $("analysis").hidden = !a;
    if (a) {
      if (a.built !== a.data || a.builtLang !== lang) buildAnalysis(a);
      $("analysis-stale").hidden = a.key === historyKey(state);
      for (const b of document.querySelectorAll("#analysis-errors button")) {
        b.classList.toggle("reviewed", !!review && a.data.decisions[Number(b.dataset.index)] === review.entry);
      }
    }
    $("review").hidden = !review;
    const body = document.body.dataset;
    if (review) {
      fillReview(state, review.entry);
      body.reviewing = "1";
      body.reviewGame = String(review.entry.game);
      body.reviewAction = String(review.entry.action);
    } else {
      delete body.reviewing;
      delete body.reviewGame;
      delete body.reviewAction;
    }
  }

  function buildAnalysis(a) {
    const d = a.data;
    a.built = d;
    a.builtLang = lang;
    buildStatistics(d);
    $("analysis-about").textContent = t(d.length ? "analysis.about_match" : "analysis.about_money",
      { n: d.games, length: d.length, ply: d.ply, seconds: d.seconds.toFixed(1) });
    const table = $("analysis-summary");
    table.replaceChildren();
    const head = table.createTHead().insertRow();
    for (const h of ["", t("log.you"), t("log.computer")]) { const th = document.createElement("th"); th.textContent = h; head.appendChild(th); }
    const body = table.createTBody();
    // the marks the server graded with (gnubg's own), for the help texts of the marked rows
    const [doubtfulMark, errorMark, blunderMark] = d.thresholds.map((m) => m.toFixed(2));
    const marks = { doubtful: doubtfulMark, error: errorMark, blunder: blunderMark };
    const cubeMarks = (who) => d.decisions.filter((e) => e.who === who && e.kind !== "play" && MARKS[e.skill]).length;
    const rows = [
      ["pr", "stat.pr", (s) => s.pr.toFixed(1), "stat.pr_help"],
      ["decisions", "stat.decisions", (s) => String(s.decisions), "stat.decisions_help"],
      ["blunders", "stat.blunders", (s) => String(s.blunders), "stat.blunders_help"],
      ["errors", "stat.errors", (s) => String(s.errors), "stat.errors_help"],
      ["doubtful", "stat.doubtful", (s) => String(s.doubtful), "stat.doubtful_help"],
      ["cube", "stat.cube", (s, who) => t("stat.cube_value", { marked: cubeMarks(who), n: s.cube_decisions }), "stat.cube_help"],
      ["error", "stat.lost", (s) => s.total_error.toFixed(3), "stat.lost_help"],
      ["luck", "stat.luck", (s) => signed(s.luck), "stat.luck_help"],
    ];
    for (const [key, label, value, help] of rows) {
      if (key === "cube" && !(game && game.match.cube)) continue;
      const tr = body.insertRow();
      tr.dataset.stat = key;
      tr.title = t(help, marks);
      const th = document.createElement("th");
      th.textContent = t(label);
      tr.appendChild(th);
      for (const who of ["you", "computer"]) {
        const td = tr.insertCell();
        td.dataset.who = who;
        td.textContent = value(d.stats[who], who);
      }
    }
    const list = $("analysis-errors");
    list.replaceChildren();
    const marked = markedEntries();
    $("analysis-count").textContent = marked.length ? t("analysis.count", { n: marked.length }) : t("analysis.none");
    for (const e of marked) {
      const li = document.createElement("li");
      const btn = document.createElement("button");
      btn.type = "button";
      btn.className = `entry s-${e.skill} ${e.who}`;
      Object.assign(btn.dataset, { index: d.decisions.indexOf(e), game: e.game, action: e.action, skill: e.skill, who: e.who });
      const part = (cls, content) => { const x = document.createElement("span"); x.className = cls; x.textContent = content; btn.appendChild(x); };
      part(`mark m-${e.skill}`, MARKS[e.skill]);
      part("where", `${d.games > 1 ? t("analysis.game_short", { game: e.game }) + " " : ""}${e.row ? `#${e.row}` : ""}`);
      part("who", t(e.who === "you" ? "analysis.you_short" : "analysis.computer_short"));
      part("what", e.kind === "play" ? `${rollText(e.roll)}: ${noMove(e.played)}` : t("analysis.cube_done", { done: cubeWord(e.done) }));
      part("lost", lost(e.error));
      btn.title = describe(e);
      btn.addEventListener("click", () => startReview(e));
      li.appendChild(btn);
      list.appendChild(li);
    }
  }

  // gnubg's statistics of the analysis (its "show statistics": data.statistics), with its
  // names and scales: errors negative in EMG and mEMG, in brackets MWC (a match) or points;
  // over all games or one (the select); each rating cell keeps gnubg's name in data-rating.
  const RATINGS = {
    "Awful!": "gstat.rating.awful", "Beginner": "gstat.rating.beginner", "Casual player": "gstat.rating.casual",
    "Intermediate": "gstat.rating.intermediate", "Advanced": "gstat.rating.advanced", "Expert": "gstat.rating.expert",
    "World class": "gstat.rating.world_class", "Supernatural": "gstat.rating.supernatural",
    "Go to bed": "gstat.luck.go_to_bed", "Bad dice, man!": "gstat.luck.bad_dice", "None": "gstat.luck.none",
    "Good dice, man!": "gstat.luck.good_dice", "Go to Las Vegas": "gstat.luck.las_vegas",
  };
  let statsScope = "all";      // "all" or a game's number, as the select shows
  const fixed = (x, n) => (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(n);
  function buildStatistics(d) {
    const st = d.statistics;
    const match = d.length > 0;
    const [doubtful, bad, veryBad] = st.marks.map((m) => m.toFixed(3));
    $("gnubg-stats-about").textContent = t(match ? "gstat.about_match" : "gstat.about_money",
      { doubtful, bad, very_bad: veryBad });
    const select = $("gnubg-stats-scope");
    if (statsScope !== "all" && !st.games.some((g) => String(g.number) === statsScope)) statsScope = "all";
    select.replaceChildren();
    const option = (value, text) => { const o = document.createElement("option"); o.value = value; o.textContent = text; select.appendChild(o); };
    option("all", t("gstat.all_games"));
    for (const g of st.games) option(String(g.number), t("gstat.game", { game: g.number, you: g.score.you, computer: g.score.computer }));
    select.value = statsScope;
    select.parentNode.hidden = st.games.length < 2;
    const players = statsScope === "all" ? st.match : st.games.find((g) => String(g.number) === statsScope).players;
    const unit = t(match ? "gstat.unit_mwc" : "gstat.unit_points");
    const na = t("gstat.na");
    // a total in EMG and, in brackets, in MWC (%) or points; a rate per decision in mEMG
    // (a pair: the figure, and the bracket drawn under it in a narrow column)
    const total = (emg, cost, sign = -1) => [fixed(sign * emg, 3), `(${match ? fixed(sign * 100 * cost, 3) + "%" : fixed(sign * cost, 3)})`];
    const rate = (r, costTotal, n, sign = -1) => (r === null ? na
      : [fixed(sign * 1000 * r, 1), `(${match ? fixed(sign * 100 * costTotal / n, 3) + "%" : fixed(sign * costTotal / n, 3)})`]);
    const named = (name, counted) => (counted ? t(RATINGS[name]) : na);
    const kind = (e) => (e.count ? [String(e.count), `(${fixed(-e.emg, 3)})`] : "0");
    const result = (x) => (match ? fixed(100 * x, 2) + "%" : fixed(x, 3));
    const parts = [
      ["checker", "gstat.checker", [
        ["total_moves", "gstat.total_moves", (p) => p.total_moves],
        ["unforced_moves", "gstat.unforced_moves", (p) => p.unforced_moves],
        ["moves_doubtful", "gstat.moves_doubtful", (p) => p.checker_marks.doubtful],
        ["moves_bad", "gstat.moves_bad", (p) => p.checker_marks.bad],
        ["moves_very_bad", "gstat.moves_very_bad", (p) => p.checker_marks["very bad"]],
        ["checker_error", "gstat.error_total", (p) => total(p.checker_error, p.checker_cost)],
        ["checker_rate", "gstat.error_rate", (p) => rate(p.checker_rate, p.checker_cost, p.unforced_moves)],
        ["checker_rating", "gstat.checker_rating", (p) => named(p.checker_rating, p.unforced_moves), (p) => (p.unforced_moves ? p.checker_rating : "n/a")],
      ]],
      ["luck", "gstat.luck", [
        ["rolls_very_lucky", "gstat.rolls_very_lucky", (p) => p.rolls["very lucky"]],
        ["rolls_lucky", "gstat.rolls_lucky", (p) => p.rolls.lucky],
        ["rolls_unlucky", "gstat.rolls_unlucky", (p) => p.rolls.unlucky],
        ["rolls_very_unlucky", "gstat.rolls_very_unlucky", (p) => p.rolls["very unlucky"]],
        ["luck_total", "gstat.luck_total", (p) => total(p.luck, p.luck_cost, 1)],
        ["luck_rate", "gstat.luck_rate", (p) => rate(p.luck_rate, p.luck_cost, p.total_moves, 1)],
        ["luck_rating", "gstat.luck_rating", (p) => t(RATINGS[p.luck_rating]), (p) => p.luck_rating],
      ]],
      ["cube", "gstat.cube", [
        ["total_cube", "gstat.total_cube", (p) => p.total_cube],
        ["close_cube", "gstat.close_cube", (p) => p.close_cube],
        ["doubles", "gstat.doubles", (p) => p.doubles],
        ["takes", "gstat.takes", (p) => p.takes],
        ["passes", "gstat.passes", (p) => p.passes],
        ["missed_double_below_cp", "gstat.missed_below_cp", (p) => kind(p.missed_double_below_cp)],
        ["missed_double_above_cp", "gstat.missed_above_cp", (p) => kind(p.missed_double_above_cp)],
        ["wrong_double_below_dp", "gstat.wrong_below_dp", (p) => kind(p.wrong_double_below_dp)],
        ["wrong_double_above_tg", "gstat.wrong_above_tg", (p) => kind(p.wrong_double_above_tg)],
        ["wrong_take", "gstat.wrong_takes", (p) => kind(p.wrong_take)],
        ["wrong_pass", "gstat.wrong_passes", (p) => kind(p.wrong_pass)],
        ["cube_doubtful", "gstat.cube_doubtful", (p) => p.cube_marks.doubtful],
        ["cube_bad", "gstat.cube_bad", (p) => p.cube_marks.bad],
        ["cube_very_bad", "gstat.cube_very_bad", (p) => p.cube_marks["very bad"]],
        ["cube_error", "gstat.error_total", (p) => total(p.cube_error, p.cube_cost)],
        ["cube_rate", "gstat.error_rate", (p) => rate(p.cube_rate, p.cube_cost, p.close_cube)],
        ["cube_rating", "gstat.cube_rating", (p) => named(p.cube_rating, p.close_cube), (p) => (p.close_cube ? p.cube_rating : "n/a")],
      ]],
      ["overall", "gstat.overall", [
        ["error", "gstat.error_total", (p) => total(p.error, p.cost)],
        ["error_rate", "gstat.error_rate", (p) => rate(p.error_rate, p.cost, p.decisions)],
        ["overall_rating", "gstat.overall_rating", (p) => named(p.overall_rating, p.decisions), (p) => (p.decisions ? p.overall_rating : "n/a")],
        ["actual_result", "gstat.actual", (p) => result(p.actual_result)],
        ["luck_adjusted_result", "gstat.luck_adjusted", (p) => result(p.luck_adjusted_result)],
      ]],
    ];
    const table = $("gnubg-stats-table");
    table.replaceChildren();
    const head = table.createTHead().insertRow();
    for (const h of ["", t("log.you"), t("log.computer")]) { const th = document.createElement("th"); th.textContent = h; head.appendChild(th); }
    const body = table.createTBody();
    for (const [part, title, rows] of parts) {
      const th = document.createElement("th");
      th.className = "part";
      th.colSpan = 3;
      th.textContent = t(title);
      const partRow = body.insertRow();
      partRow.dataset.part = part;
      partRow.appendChild(th);
      for (const [key, label, value, rating] of rows) {
        const tr = body.insertRow();
        Object.assign(tr.dataset, { stat: key, part });
        if (rating) tr.className = "rating";
        if (/^(missed|wrong)_/.test(key)) { tr.classList.add("kind"); tr.title = t("gstat.cube_help"); }
        if (/result$/.test(key)) tr.title = t(match ? "gstat.result_help_match" : "gstat.result_help_money");
        const cell = document.createElement("th");
        cell.textContent = t(label, { unit });
        tr.appendChild(cell);
        for (const who of ["you", "computer"]) {
          const td = tr.insertCell();
          td.dataset.who = who;
          const v = value(players[who]);
          if (Array.isArray(v)) {
            const sub = document.createElement("span");
            sub.className = "sub";
            sub.textContent = v[1];
            td.append(v[0], " ", sub);
          } else {
            td.textContent = String(v);
          }
          if (rating) { td.dataset.rating = rating(players[who]); td.title = rating(players[who]); }
        }
      }
    }
  }

  // The review bar under the board: which decision, its mark, the plays with their
  // equities (the legend of the arrows), and the way back.
  function fillReview(state, e) {
    const d = analysis.data;
    const where = t(d.games > 1 ? "review.where_game" : "review.where", { game: e.game, move: e.row || "?" });
    const mine = e.who === "you";
    let what;
    if (e.kind === "play") what = t(mine ? "review.you_rolled" : "review.computer_rolled", { dice: rollDash(e.roll) });
    else if (e.kind === "cube") what = t(mine ? "review.you_double_or_roll" : "review.computer_double_or_roll");
    else what = t(mine ? "review.your_answer" : "review.computer_answer");
    $("review-title").textContent = t("review.title", { where, what });
    const mark = $("review-mark");
    mark.className = `mark m-${e.skill || "none"}`;
    const hasMwc = e.error_mwc !== null && e.error_mwc !== undefined && d.length && e.error > 0;
    mark.title = t(hasMwc ? "review.lost_mwc_title" : "review.lost_title");
    const lostText = hasMwc ? t("review.lost_mwc", { lost: lost(e.error), mwc: (100 * e.error_mwc).toFixed(1) }) : lost(e.error);
    mark.textContent = MARKS[e.skill] ? t("review.marked", { mark: MARKS[e.skill], skill: skillWord(e.skill), lost: lostText })
      : e.error > 0 ? t("review.slip", { lost: lost(e.error) }) : t(e.kind === "play" ? "review.best_play" : "review.right");
    const box = $("review-plays");
    box.replaceChildren();
    const line = (set, label, play, equity) => {
      const row = document.createElement("div");
      row.className = `legend ${set}`;
      row.dataset.set = set;
      for (const [cls, content] of [["key", ""], ["label", label], ["play", play], ["equity", equity]]) {
        const x = document.createElement("span");
        x.className = cls;
        x.textContent = content;
        row.appendChild(x);
      }
      box.appendChild(row);
    };
    if (e.kind === "play") {
      const same = samePlay(e);
      if (!same) line("played", t("review.played"), noMove(e.played), signed(e.played_equity));
      line("best", t(same ? "review.played_best" : "review.best"), noMove(e.best), signed(e.best_equity));
      if (e.candidates && e.candidates.length > 1) {
        const more = document.createElement("details");
        more.className = "candidates";
        const summary = document.createElement("summary");
        summary.textContent = t("review.candidates", { n: e.candidates.length });
        more.appendChild(summary);
        const table = document.createElement("table");
        for (const c of e.candidates) {
          const tr = table.insertRow();
          if (c.play === e.played) tr.className = "played";
          if (c.play === e.best) tr.className += " best";
          tr.insertCell().textContent = noMove(c.play);
          tr.insertCell().textContent = signed(c.equity);
          tr.insertCell().textContent = c.play === e.best ? "" : lost(e.best_equity - c.equity);
        }
        more.appendChild(table);
        box.appendChild(more);
      }
    } else {
      const said = document.createElement("p");
      said.className = "cube-line";
      for (const [cls, label, content] of [["done", t("review.done_label"), cubeWord(e.done)], ["proper", t("review.proper_label"), cubeWord(e.proper)]]) {
        const x = document.createElement("span");
        x.className = cls;
        x.append(label);
        const b = document.createElement("b");
        b.textContent = content;
        x.appendChild(b);
        said.append(x, cls === "done" ? " · " : "");
      }
      box.appendChild(said);
      // the three cubeful equities (the doubler's), the one of what was done and the proper one picked out
      const row = (what) => (/pass/.test(what) ? "double_pass" : /take|beaver/.test(what) ? "double_take"
        : /^double/.test(what) ? null : "no_double");
      const done = e.kind === "take" ? row(e.done) : e.done === "double" ? (e.double_take < e.double_pass ? "double_take" : "double_pass") : "no_double";
      const proper = row(e.proper);
      const table = document.createElement("table");
      table.className = "cube-equities";
      for (const [k, label] of [["no_double", "cube.no_double"], ["double_take", "cube.double_take"], ["double_pass", "cube.double_pass"]]) {
        const tr = table.insertRow();
        tr.dataset.option = k;
        tr.className = [k === done ? "done" : "", k === proper ? "proper" : ""].join(" ").trim();
        tr.insertCell().textContent = t(label);
        tr.insertCell().textContent = signed(e[k]);
        tr.insertCell().textContent = k === proper ? t("review.proper") : k === done ? t("review.done") : "";
      }
      box.appendChild(table);
    }
    const list = markedEntries();
    $("review-prev").disabled = !list.some((x) => ordinal(x) < ordinal(e));
    $("review-next").disabled = !list.some((x) => ordinal(x) > ordinal(e));
  }

  function startReview(entry) {
    if (!game || pending || !analysis) return;
    review = { entry };
    selected = null;
    drag = null;
    press = null;
    render();
    bump();
    // the board and the review under it in view: from the page's top if they fit, else from the board
    const r = svg().getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight) {
      if ($("review").getBoundingClientRect().bottom + scrollY <= innerHeight) window.scrollTo(0, 0);
      else $("strip-computer").scrollIntoView({ block: "start" });
    }
  }
  function endReview() {
    if (!review) return false;
    review = null;
    render();
    bump();
    return true;
  }
  function stepReview(dir) {
    if (!review) return;
    const o = ordinal(review.entry);
    const list = markedEntries();
    const next = dir > 0 ? list.find((x) => ordinal(x) > o) : list.reverse().find((x) => ordinal(x) < o);
    if (next) startReview(next);
  }

  // GNU Match ID: the cube's value, its owner (0, 1; 3 centred) and the Crawford flag.
  function decodeMatchId(id) {
    try {
      const raw = atob(id);
      if (raw.length !== 9) return null;
      const get = (at, width) => {
        let v = 0;
        for (let i = 0; i < width; i++) v |= ((raw.charCodeAt((at + i) >> 3) >> ((at + i) & 7)) & 1) << i;
        return v;
      };
      return { cube: 1 << get(0, 4), owner: get(4, 2), crawford: get(7, 1) === 1 };
    } catch (e) { return null; }
  }
  // The board before an analysed decision, its cube and the side to act.
  function reviewInfo(state, e) {
    let board = e.board;
    if (e.kind === "take") {      // an answer: the position of the double (the doubler on roll)
      const double = analysis.data.decisions.find((x) => x.game === e.game && x.kind === "cube" &&
        x.position_id === e.position_id && x.who !== e.who);
      if (double) board = double.board;
    }
    const mid = decodeMatchId(e.match_id);
    const value = mid ? mid.cube : 1;
    const cube = { value, owner: mid && mid.owner !== 3 ? (mid.owner === state.you ? "you" : "computer") : null,
      offered: null, offered_by: null };
    if (e.kind === "take") { cube.offered = value * 2; cube.offered_by = e.who === "you" ? "computer" : "you"; }
    return { entry: e, board, cube, side: e.who, crawford: !!(mid && mid.crawford) };
  }
  function reviewView(state, e) {
    const info = reviewInfo(state, e);
    const g = Object.assign({}, state.game, { phase: "review", cube: info.cube, outcome: null, resignation: null,
      dice: e.roll || null, turn: e.who, on_roll: e.who });
    const shell = Object.assign({}, state, { game: g, match: Object.assign({}, state.match, { crawford: info.crawford }),
      board: info.board, moves: null });
    const dice = [];
    if (e.kind === "play" && e.roll) {
      const cx = halfX(e.who === "you" ? "right" : "left");
      dice.push({ side: e.who, value: e.roll[0], x: cx - 36 }, { side: e.who, value: e.roll[1], x: cx + 36 });
    }
    const sets = [];
    if (e.kind === "play") {
      const same = samePlay(e);
      if (!same) sets.push({ name: "played", moves: e.played_moves || [] });
      sets.push({ name: same ? "same" : "best", moves: e.best_moves || [] });
    }
    return { state: shell, board: info.board, dice, final: false, movable: new Set(), picked: null, lit: new Map(),
      lifted: null, arrows: null, review: { side: e.who, sets } };
  }

  // -- moving checkers: click, tap, drag ------------------------------------------------------------
  function canMove() { return game && game.moves && !pending && !review && screen() === "game"; }
  function farthest(from) {
    const d = (game.moves.destinations[String(from)] || []);
    return d.length ? Math.min(...d) : null;
  }
  function moveChecker(from, to) {
    selected = null;
    drag = null;
    run(() => perform({ action: "move", from, to }));
  }
  function clickAt(loc) {
    if (!canMove()) return;
    const src = sources(game);
    if (selected !== null) {
      if (loc === selected) {
        const to = farthest(selected);
        if (to !== null) { moveChecker(selected, to); return; }
      } else if (loc !== null && targets(game, selected).has(loc)) {
        moveChecker(selected, loc);
        return;
      }
      selected = loc !== null && src.has(loc) && loc !== selected ? loc : null;
    } else if (loc !== null && src.has(loc)) {
      selected = loc;
    }
    render();
    bump();
  }
  function onDown(ev) {
    if (ev.button !== undefined && ev.button !== 0) return;
    Sound.unlock();
    if (!canMove()) return;
    const p = svgXY(ev);
    const loc = locate(p.x, p.y);
    press = { id: ev.pointerId, cx: ev.clientX, cy: ev.clientY, loc, source: loc !== null && sources(game).has(loc) };
    document.body.dataset.pointer = ev.pointerType || "mouse";
    if (press.source) {
      try { svg().setPointerCapture(ev.pointerId); } catch (e) { /* capture is a nicety */ }
    }
    ev.preventDefault();
  }
  function onMove(ev) {
    if (!press || ev.pointerId !== press.id) return;
    const p = svgXY(ev);
    if (!drag) {
      if (!press.source || Math.hypot(ev.clientX - press.cx, ev.clientY - press.cy) < 6) return;
      drag = { from: press.loc };
      selected = null;
      drawBoard(viewOf(game));
      const pal = palettes(game);
      drag.node = checker(svg(), 0, 0, pal.you, "", { class: "checker dragging", "data-checker": "you", "data-dragging": "1" }, "picked");
      document.body.dataset.dragging = "1";
    }
    drag.node.setAttribute("transform", `translate(${p.x},${p.y})`);
    ev.preventDefault();
  }
  function onUp(ev) {
    if (!press || ev.pointerId !== press.id) return;
    const p = svgXY(ev);
    const loc = locate(p.x, p.y);
    const wasDrag = drag;
    press = null;
    delete document.body.dataset.dragging;
    if (wasDrag) {
      drag = null;
      if (loc !== null && loc !== wasDrag.from && targets(game, wasDrag.from).has(loc)) {
        moveChecker(wasDrag.from, loc);
      } else {
        render();
        bump();
      }
      return;
    }
    clickAt(loc);
  }
  function onCancel(ev) {
    if (!press || ev.pointerId !== press.id) return;
    press = null;
    drag = null;
    delete document.body.dataset.dragging;
    render();
    bump();
  }
  function cancelSelection() {
    if (selected === null && !drag) return false;
    selected = null;
    drag = null;
    press = null;
    render();
    bump();
    return true;
  }

  // -- sound (Web Audio, made on the spot) -----------------------------------------------------------
  const Sound = {
    ctx: null, noise: null, count: 0,
    unlock() {
      if (!settings.sound || this.ctx) return;
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return;
      try {
        this.ctx = new AC();
        const n = this.ctx.sampleRate * 0.5;
        this.noise = this.ctx.createBuffer(1, n, this.ctx.sampleRate);
        const data = this.noise.getChannelData(0);
        for (let i = 0; i < n; i++) data[i] = Math.random() * 2 - 1;
      } catch (e) { this.ctx = null; }
    },
    click(when, freq, gain, length) {
      const ctx = this.ctx;
      const src = ctx.createBufferSource();
      src.buffer = this.noise;
      const filter = ctx.createBiquadFilter();
      filter.type = "bandpass";
      filter.frequency.value = freq;
      filter.Q.value = 1.2;
      const amp = ctx.createGain();
      amp.gain.setValueAtTime(gain, when);
      amp.gain.exponentialRampToValueAtTime(0.001, when + length);
      src.connect(filter).connect(amp).connect(ctx.destination);
      src.start(when, Math.random() * 0.3, length + 0.02);
    },
    thud(when, freq, gain, length) {
      const ctx = this.ctx;
      const osc = ctx.createOscillator();
      osc.frequency.setValueAtTime(freq, when);
      osc.frequency.exponentialRampToValueAtTime(freq * 0.5, when + length);
      const amp = ctx.createGain();
      amp.gain.setValueAtTime(gain, when);
      amp.gain.exponentialRampToValueAtTime(0.001, when + length);
      osc.connect(amp).connect(ctx.destination);
      osc.start(when);
      osc.stop(when + length + 0.02);
    },
    play(kind) {
      if (!settings.sound || !this.ctx) return;
      try {
        if (this.ctx.state === "suspended") this.ctx.resume();
        const t = this.ctx.currentTime + 0.01;
        if (kind === "dice") {
          for (let i = 0; i < 5; i++) this.click(t + i * 0.045 + Math.random() * 0.02, 2500 + Math.random() * 1500, 0.35, 0.03);
        } else if (kind === "hit") {
          this.click(t, 1400, 0.7, 0.05); this.thud(t, 220, 0.5, 0.09);
          this.click(t + 0.08, 1900, 0.5, 0.04);
        } else {
          this.click(t, 1700, 0.45, 0.035); this.thud(t, 170, 0.35, 0.07);
        }
        this.count += 1;
        document.body.dataset.sounds = String(this.count);
      } catch (e) { /* no sound, no harm */ }
    },
  };

  // -- screens and dialogs -----------------------------------------------------------------------------
  function screen() { return document.body.dataset.screen; }
  function showScreen(name) {
    document.body.dataset.screen = name;
    $("lobby").hidden = name !== "lobby";
    $("game").hidden = name !== "game";
    $("btn-lobby").hidden = name !== "game";
    $("btn-restart").hidden = name !== "game";
    if (name === "lobby") {
      $("scoreboard").replaceChildren();
      delete document.body.dataset.phase;
      document.body.dataset.state = "lobby";
      fillLobby();
    }
  }
  function fillLobby() {
    const opts = matchOptions();
    const chosen = { level: opts.level, length: opts.length, side: opts.side };
    for (const name of ["level", "length", "side"]) {
      for (const input of document.querySelectorAll(`#lobby-form input[name=${name}]`)) input.checked = String(chosen[name]) === input.value;
    }
    $("lobby-cube").checked = opts.cube;
    // money play and the 3-point match come with the cube
    for (const label of document.querySelectorAll("#lobby-length [data-cube-only]")) label.hidden = !opts.cube;
    $("level-note").textContent = t(LEVEL_NOTE_KEYS[opts.level]);
    $("format-note").textContent = t(opts.cube ? "format.note_cube" : "format.note_cubeless");
    syncSettingInputs();
    const saved = loadSaved();
    const card = $("continue-card");
    if (saved && saved.id && !saved.over) {
      card.hidden = false;
      const s = saved.score || { you: 0, computer: 0 };
      const when = saved.savedAt ? new Date(saved.savedAt).toLocaleString(lang) : "";
      const params = { length: saved.length, game: saved.game, you: s.you, computer: s.computer, when,
        level: LEVEL_KEYS[saved.level] ? t(LEVEL_KEYS[saved.level]) : "" };
      const kind = t(formatKey({ money: saved.money, length: saved.length }, "long"), params);
      const tags = [saved.cube === false ? t("continue.cubeless") : null,
        saved.crawford && !saved.money && saved.cube !== false ? t("tag.crawford") : null].filter(Boolean);
      $("continue-desc").textContent = t(when ? "continue.desc_when" : "continue.desc", Object.assign(params, { kind,
        tags: tags.length ? t("continue.tags", { tags: tags.join(t("list.separator")) }) : "" }));
    } else {
      card.hidden = true;
    }
  }
  function syncSettingInputs() {
    for (const input of document.querySelectorAll("[data-setting]")) {
      const key = input.dataset.setting;
      if (input.type === "checkbox") input.checked = !!settings[key];
      else input.value = key === "pace" ? pace() : settings[key];
    }
  }
  function openOverlay(id) {
    for (const o of document.querySelectorAll(".overlay")) o.hidden = o.id !== id;
    document.body.dataset.overlay = id;
    const first = $(id).querySelector("select, input, button.primary");
    if (first) first.focus();
    bump();
  }
  function closeOverlay() {
    for (const o of document.querySelectorAll(".overlay")) o.hidden = true;
    delete document.body.dataset.overlay;
    if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
    bump();
  }
  // The guide: the rules, the controls, tips and the glossary, a tab each;
  // `anchor` (rule-3-4, term-blot) is scrolled to and marked.
  function showTab(name) {
    for (const tab of document.querySelectorAll("#help [data-tab]")) {
      const on = tab.dataset.tab === name;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      tab.classList.toggle("on", on);
    }
    for (const panel of document.querySelectorAll("#help [data-panel]")) panel.hidden = panel.dataset.panel !== name;
    document.body.dataset.guide = name;
    $("guide-body").scrollTop = 0;
    bump();
  }
  function openGuide(tab, anchor) {
    openOverlay("help");
    showTab(tab);
    for (const old of document.querySelectorAll("#help .cited")) old.classList.remove("cited");
    if (anchor) {
      const target = document.getElementById(anchor);
      if (target) {
        target.classList.add("cited");
        target.scrollIntoView({ block: "center" });
        document.body.dataset.guideAnchor = anchor;
      }
    } else {
      delete document.body.dataset.guideAnchor;
    }
  }
  function guideFromHash() {        // #rules, #controls, #tips, #glossary or a rule's or term's anchor
    const h = decodeURIComponent(location.hash.slice(1));
    if (!h) return;
    if (["rules", "controls", "tips", "glossary"].includes(h)) openGuide(h);
    else if (/^rule-/.test(h) && document.getElementById(h)) openGuide("rules", h);
    else if (/^term-/.test(h) && document.getElementById(h)) openGuide("glossary", h);
  }

  let confirmAnswer = null;
  function ask(message, yes) {
    $("confirm-text").textContent = message;
    $("confirm-yes").textContent = yes || t("dialog.ok");
    openOverlay("confirm");
    $("confirm-yes").focus();
    return new Promise((resolve) => { confirmAnswer = resolve; });
  }
  function answer(value) {
    const f = confirmAnswer;
    confirmAnswer = null;
    closeOverlay();
    if (f) f(value);
  }

  async function toLobby() {
    if (pending) return;
    const live = game && !game.match.over;
    if (live && !(await ask(t("confirm.lobby"), t("confirm.lobby_yes")))) return;
    run(async () => {
      if (game && game.moves && game.moves.steps.length) {
        const state = await api("POST", `/api/games/${encodeURIComponent(game.id)}/actions`, { action: "undo", what: "moves" });
        game = state;
      }
      await persist(game);
      sessionStorage.removeItem(TAB_KEY);
      game = null;
      hintView = null;
      selected = null;
      forgetAnalysis();
      showScreen("lobby");
    });
  }
  async function restart() {
    if (pending) return;
    const live = game && !game.match.over;
    if (live && !(await ask(t("confirm.restart"), t("confirm.restart_yes")))) return;
    const opts = game ? { length: game.match.length, cube: game.match.cube, level: game.level, side: game.you } : matchOptions();
    run(async () => {
      writeSaved(null);
      await newMatch(opts);
    });
  }

  // -- keyboard ---------------------------------------------------------------------------------------
  let keyCount = 0;
  function onKey(ev) {
    keyCount += 1;
    document.body.dataset.keys = String(keyCount);      // keys seen (for tests: a key that changes nothing)
    Sound.unlock();
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const overlay = document.body.dataset.overlay;
    if (overlay) {
      if (ev.key === "Escape") { ev.preventDefault(); if (overlay === "confirm") answer(false); else closeOverlay(); }
      else if (ev.key === "?" && overlay === "help") { ev.preventDefault(); closeOverlay(); }
      return;
    }
    const tag = ev.target && ev.target.tagName;
    const typing = tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA";
    if (typing && ev.key !== "Escape") return;
    if (ev.key === "?") { ev.preventDefault(); openGuide(screen() === "game" ? "controls" : "rules"); return; }
    if (screen() !== "game" || !game) return;
    if ((ev.key === "Enter" || ev.key === " ") && (tag === "BUTTON" || tag === "A" || tag === "SUMMARY")) return;   // the focused control's own key
    const logLine = ev.target && ev.target.closest && ev.target.closest(".line.analysed");
    if (logLine && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); logLine.click(); return; }
    if (review) {       // an analysed position on the board: Esc goes back, the arrows step; the game's keys wait
      if (!pending && ev.key === "Escape") endReview();
      else if (!pending && ev.key === "ArrowLeft") stepReview(-1);
      else if (!pending && ev.key === "ArrowRight") stepReview(1);
      if (["Escape", "ArrowLeft", "ArrowRight", " ", "Backspace"].includes(ev.key)) ev.preventDefault();
      return;
    }
    const a = game.actions;
    const m = game.moves;
    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    let handled = true;
    if (key === "Escape") handled = cancelSelection() || !!drag;
    else if (pending) handled = key === " " || key === "Backspace";
    else if ((key === " " || key === "Enter" || key === "r") && a.includes("roll")) act({ action: "roll" });
    else if (key === "Enter" && a.includes("commit")) act({ action: "commit" });
    else if ((key === "Enter" || key === " " || key === "n") && a.includes("next")) act({ action: "next" });
    else if ((key === "u" || key === "Backspace") && m && m.steps.length && a.includes("undo")) act({ action: "undo", what: "step" });
    else if (key === "h" && a.includes("hint")) act({ action: "hint" });
    else if (key === "d" && a.includes("double")) act({ action: "double" });
    else if (key === "t" && a.includes("take")) act({ action: "take" });
    else if (key === "p" && a.includes("drop")) act({ action: "drop" });
    else if (key === "a" && a.includes("accept")) act({ action: "accept" });
    else if (key === "x" && a.includes("reject")) act({ action: "reject" });
    else handled = key === " " || key === "Backspace";     // no page scroll, no going back
    if (handled) ev.preventDefault();
  }

  // -- wiring ---------------------------------------------------------------------------------------------
  function wire() {
    const board = svg();
    board.addEventListener("pointerdown", onDown);
    board.addEventListener("pointermove", onMove);
    board.addEventListener("pointerup", onUp);
    board.addEventListener("pointercancel", onCancel);
    board.addEventListener("contextmenu", (ev) => ev.preventDefault());
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", () => Sound.unlock(), { capture: true });

    for (const btn of document.querySelectorAll(".controls button[data-action]")) {
      btn.addEventListener("click", (ev) => {
        if (ev.detail > 0) btn.blur();          // a pointer click: the keys stay the page's
        const name = btn.dataset.action;
        if (!game) return;
        if (name === "resign") act({ action: "resign", level: Number($("resign-level").value) });
        else if (name === "undo") act({ action: "undo", what: game.moves && game.moves.steps.length ? "step" : "turn" });
        else act({ action: name });
      });
    }
    // after a pointer click a control gives the focus back: Space and Enter stay the game's keys
    document.addEventListener("click", (ev) => {
      const target = ev.target && ev.target.closest && ev.target.closest("summary, a, #game button, #game [role=button]");
      if (ev.detail > 0 && target && target.blur) target.blur();
    });
    $("resign-level").addEventListener("change", () => $("resign-level").blur());
    $("btn-newmatch").addEventListener("click", () => run(() => newMatch({ length: game.match.length, cube: game.match.cube, level: game.level, side: game.you })));
    $("btn-analyse").addEventListener("click", analyse);
    $("analysis-again").addEventListener("click", analyse);
    $("analysis-hide").addEventListener("click", () => { forgetAnalysis(); render(); bump(); });
    $("gnubg-stats").addEventListener("toggle", bump);
    $("gnubg-stats-scope").addEventListener("change", (ev) => {
      statsScope = ev.target.value;
      if (analysis) buildStatistics(analysis.data);
      bump();
    });
    $("review-back").addEventListener("click", endReview);
    $("review-prev").addEventListener("click", () => stepReview(-1));
    $("review-next").addEventListener("click", () => stepReview(1));
    $("notation").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const play = $("notation-text").value.trim();
      if (!game || !play) return;
      run(async () => {
        if (game.moves && game.moves.steps.length) {
          game = await api("POST", `/api/games/${encodeURIComponent(game.id)}/actions`, { action: "undo", what: "moves" });
        }
        await perform({ action: "play", play });
        $("notation-text").value = "";
      });
    });
    $("btn-lobby").addEventListener("click", (ev) => { if (ev.detail > 0) ev.currentTarget.blur(); toLobby(); });
    $("btn-restart").addEventListener("click", (ev) => { if (ev.detail > 0) ev.currentTarget.blur(); restart(); });
    $("btn-help").addEventListener("click", () => openGuide(screen() === "game" ? "controls" : "rules"));
    $("btn-settings").addEventListener("click", () => { syncSettingInputs(); openOverlay("settings"); });
    $("help-close").addEventListener("click", closeOverlay);
    $("settings-close").addEventListener("click", closeOverlay);
    $("confirm-yes").addEventListener("click", () => answer(true));
    $("confirm-no").addEventListener("click", () => answer(false));
    for (const o of document.querySelectorAll(".overlay")) {
      o.addEventListener("click", (ev) => { if (ev.target === o) { if (o.id === "confirm") answer(false); else closeOverlay(); } });
    }
    for (const input of document.querySelectorAll("[data-setting]")) {
      input.addEventListener("change", () => {
        const key = input.dataset.setting;
        settings[key] = input.type === "checkbox" ? input.checked : input.value;
        if (key === "pace") params.delete("pace");
        if (key === "sound" && settings.sound) Sound.unlock();
        saveSettings();
        syncSettingInputs();
        if (game && screen() === "game") render();
        bump();
      });
    }
    for (const input of document.querySelectorAll("#lobby-form input[type=radio]")) {
      input.addEventListener("change", () => {
        settings[input.name] = input.name === "level" ? input.value : Number(input.value);
        saveSettings();
        fillLobby();
        bump();
      });
    }
    $("lobby-cube").addEventListener("change", () => {
      settings.cube = $("lobby-cube").checked;
      saveSettings();
      fillLobby();
      bump();
    });
    for (const select of document.querySelectorAll("[data-setting-lang]")) {
      select.addEventListener("change", () => { select.blur(); switchLang(select.value); });
    }
    for (const link of document.querySelectorAll("[data-guide]")) {
      link.addEventListener("click", (ev) => { ev.preventDefault(); openGuide(link.dataset.guide); });
    }
    for (const tab of document.querySelectorAll("#help [data-tab]")) {
      tab.addEventListener("click", () => showTab(tab.dataset.tab));
    }
    $("lobby-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      if (pending) return;
      const saved = loadSaved();
      if (saved && saved.id && !saved.over &&
          !(await ask(t("confirm.new"), t("confirm.new_yes")))) return;
      run(async () => {
        writeSaved(null);
        await newMatch(matchOptions());
      });
    });
    $("btn-continue").addEventListener("click", () => {
      const saved = loadSaved();
      if (!saved) return;
      run(async () => {
        if (!(await openGame(saved.id, saved))) {
          writeSaved(null);
          fillLobby();
          throw refusal("page_game_lost", {});
        }
      });
    });
    $("resume-file").addEventListener("change", (ev) => {
      const file = ev.target.files && ev.target.files[0];
      if (!file) return;
      run(async () => {
        if (file.size > 190000) throw refusal("page_file_too_large", {});
        const content = await file.text();
        const format = /\.sgf$/i.test(file.name) ? "sgf" : "mat";
        writeSaved(null);
        await newMatch({ level: matchOptions().level, side: Number(settings.side), resume: { format, text: content } });
        ev.target.value = "";
      });
    });
    window.addEventListener("pagehide", () => { if (game) persistNow(game); });
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden" && game) persistNow(game); });
    if (window.ResizeObserver) {
      let width = 0;
      new ResizeObserver((entries) => {
        const w = entries[0].contentRect.width;
        if (Math.abs(w - width) > 1) {
          width = w;
          if (game && screen() === "game" && !pending && !drag) render();
        }
      }).observe($("game"));
    }
  }
  function persistNow(state) {      // leaving the page: what is known now (the record was fetched after the last turn)
    const m = state.match;
    const saved = loadSaved() || {};
    if (saved.id !== state.id) return;
    Object.assign(saved, { score: m.score, game: m.game, crawford: m.crawford, over: m.over, savedAt: Date.now() });
    if (m.over) writeSaved(null); else writeSaved(saved);
  }

  function addLobbyError() {
    const box = document.createElement("div");
    box.id = "lobby-error";
    box.className = "error";
    box.setAttribute("role", "alert");
    box.hidden = true;
    $("lobby").prepend(box);
  }

  async function start() {
    try {
      await loadLang(chosenLang());
    } catch (e) {               // no catalog: the page's own English stays
      console.error(e);
    }
    translatePage();
    document.body.dataset.i18nReady = "1";
    addLobbyError();
    wire();
    window.addEventListener("hashchange", guideFromHash);
    guideFromHash();
    const tab = sessionStorage.getItem(TAB_KEY);
    if (tab) {
      await run(async () => {
        if (!(await openGame(tab, loadSaved()))) {
          sessionStorage.removeItem(TAB_KEY);
          showScreen("lobby");
        }
      });
    } else {
      showScreen("lobby");
      bump();
      markReady();
    }
  }

  window.addEventListener("DOMContentLoaded", start);
})();
