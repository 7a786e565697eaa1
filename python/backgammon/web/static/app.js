// Backgammon against the computer: draws the board from the JSON API's
// game state and sends the player's actions.  Every rule is the server's
// (the engine's): the page only shows what the state says is allowed.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const STORE_KEY = "backgammon.game";
  // Board geometry (viewBox 0 0 1100 760).
  const G = {
    W: 66, R: 30, TOP: 30, BOTTOM: 730, MID: 380, TRI: 292,
    LEFT: 90, BAR_L: 486, BAR_R: 560, RIGHT: 956, BAR_X: 523,
    TRAY_X: 974, TRAY_W: 46,
  };
  const COLORS = {
    light: { fill: "url(#chk-light)", stroke: "#6b5535", text: "#3a2a1a", die: "#f6efe0", pip: "#2b2018" },
    dark: { fill: "url(#chk-dark)", stroke: "#0d0a08", text: "#f3ead8", die: "#2a1d17", pip: "#f3ead8" },
  };

  let game = null;          // the last state from the server
  let selected = null;      // the point (your numbering, 25 = bar) of the checker picked
  let busy = false;
  let version = 0;

  const $ = (id) => document.getElementById(id);

  // -- the API -----------------------------------------------------------------
  async function api(method, path, body) {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const message = data && data.error ? data.error : `${response.status} ${response.statusText}`;
      const err = new Error(message);
      err.status = response.status;
      throw err;
    }
    return data;
  }

  async function run(task) {
    if (busy) return;
    busy = true;
    document.body.dataset.busy = "1";
    showError(null);
    try {
      await task();
    } catch (e) {
      showError(e.message || String(e));
    } finally {
      busy = false;
      document.body.dataset.busy = "0";
    }
  }

  function showError(message) {
    const box = $("error");
    box.hidden = !message;
    box.textContent = message || "";
  }

  async function act(body) {
    const state = await api("POST", `/api/games/${game.id}/actions`, body);
    selected = null;
    show(state);
    return state;
  }

  async function newGame(options) {
    const state = await api("POST", "/api/games", options);
    localStorage.setItem(STORE_KEY, state.id);
    selected = null;
    $("hint").innerHTML = '<p class="muted">Ask for a hint on your turn.</p>';
    show(state);
  }

  // -- drawing helpers -------------------------------------------------------------
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

  function pointX(p) {          // centre of point p (your numbering)
    const W = G.W;
    if (p <= 6) return G.RIGHT - W * (p - 1) - W / 2;
    if (p <= 12) return G.BAR_L - W * (p - 7) - W / 2;
    if (p <= 18) return G.LEFT + W * (p - 13) + W / 2;
    return G.BAR_R + W * (p - 19) + W / 2;
  }
  const isTop = (p) => p >= 13;

  function defs(svg) {
    const d = el("defs", {}, svg);
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
  }

  function checker(parent, x, y, palette, label, extra) {
    const g = el("g", { class: "checker" }, parent);
    el("circle", Object.assign({ cx: x, cy: y, r: G.R - 1, fill: palette.fill, stroke: palette.stroke,
      "stroke-width": 2, filter: "url(#shadow)" }, extra || {}), g);
    el("circle", { cx: x, cy: y, r: G.R - 9, fill: "none", stroke: palette.stroke, "stroke-opacity": ".35",
      "stroke-width": 1.5 }, g);
    if (label) text(g, x, y + 1, label, { "font-size": 22, "font-weight": "bold", fill: palette.text });
    return g;
  }

  function stack(parent, p, n, palette, highlight, movable) {
    if (!n) return;
    const x = pointX(p);
    const shown = Math.min(n, 5);
    for (let i = 0; i < shown; i++) {
      const y = isTop(p) ? G.TOP + G.R + 2 * G.R * i : G.BOTTOM - G.R - 2 * G.R * i;
      const last = i === shown - 1;
      const extra = last && highlight ? { stroke: "#ffd84a", "stroke-width": 5 }
        : last && movable ? { stroke: "#ffd84a", "stroke-width": 2.5, "stroke-opacity": ".8" } : undefined;
      checker(parent, x, y, palette, last && n > 5 ? String(n) : "", extra);
    }
  }

  function die(parent, x, y, value, palette, used) {
    const g = el("g", { class: "die", opacity: used ? 0.35 : 1 }, parent);
    el("rect", { x: x - 27, y: y - 27, width: 54, height: 54, rx: 9, fill: palette.die, stroke: "#000",
      "stroke-opacity": ".5", "stroke-width": 1.5, filter: "url(#shadow)" }, g);
    const o = 14;
    const spots = { 1: [[0, 0]], 2: [[-o, -o], [o, o]], 3: [[-o, -o], [0, 0], [o, o]],
      4: [[-o, -o], [o, -o], [-o, o], [o, o]], 5: [[-o, -o], [o, -o], [0, 0], [-o, o], [o, o]],
      6: [[-o, -o], [o, -o], [-o, 0], [o, 0], [-o, o], [o, o]] }[value] || [];
    for (const [dx, dy] of spots) el("circle", { cx: x + dx, cy: y + dy, r: 5.2, fill: palette.pip }, g);
  }

  function cube(parent, x, y, value, size, label) {
    const g = el("g", { class: "cube" }, parent);
    const s = size || 52;
    el("rect", { x: x - s / 2, y: y - s / 2, width: s, height: s, rx: 8, fill: "#f7f2e6", stroke: "#2b2018",
      "stroke-width": 2, filter: "url(#shadow)" }, g);
    text(g, x, y + 1, String(value), { "font-size": s * 0.5, "font-weight": "bold", fill: "#2b2018" });
    if (label) text(g, x, y + s / 2 + 14, label, { "font-size": 13, fill: "#f1ead9" });
  }

  // -- the board -----------------------------------------------------------------------
  function drawBoard(state) {
    const svg = $("board");
    svg.replaceChildren();
    defs(svg);
    const youColor = state.you === 0 ? COLORS.light : COLORS.dark;
    const compColor = state.you === 0 ? COLORS.dark : COLORS.light;
    const b = state.board;
    const moves = state.moves;
    const dests = moves ? moves.destinations : {};
    const targets = selected !== null && dests[String(selected)] ? dests[String(selected)] : [];

    // frame, felt, bar and trays
    el("rect", { x: 2, y: 8, width: 1090, height: 744, rx: 18, fill: "url(#wood)", stroke: "#2e1a0c", "stroke-width": 3 }, svg);
    el("rect", { x: G.LEFT, y: G.TOP, width: G.BAR_L - G.LEFT, height: G.BOTTOM - G.TOP, fill: "url(#felt)" }, svg);
    el("rect", { x: G.BAR_R, y: G.TOP, width: G.RIGHT - G.BAR_R, height: G.BOTTOM - G.TOP, fill: "url(#felt)" }, svg);
    el("rect", { x: G.BAR_L, y: G.TOP - 22, width: G.BAR_R - G.BAR_L, height: G.BOTTOM - G.TOP + 44, fill: "#5a3318",
      stroke: "#2e1a0c", "stroke-width": 2 }, svg);
    for (const [y0, y1] of [[G.TOP, G.MID - 8], [G.MID + 8, G.BOTTOM]]) {
      el("rect", { x: G.TRAY_X, y: y0, width: G.TRAY_W, height: y1 - y0, rx: 6, fill: "#3a2110",
        stroke: "#24130a", "stroke-width": 2 }, svg);
    }
    // the cube strip on the left
    el("rect", { x: 12, y: G.TOP, width: 62, height: G.BOTTOM - G.TOP, rx: 8, fill: "#3a2110",
      stroke: "#24130a", "stroke-width": 2 }, svg);

    // triangles
    for (let p = 1; p <= 24; p++) {
      const x = pointX(p);
      const base = isTop(p) ? G.TOP : G.BOTTOM;
      const tip = isTop(p) ? G.TOP + G.TRI : G.BOTTOM - G.TRI;
      const color = p % 2 === 0 ? "#e8d3a7" : "#a0412d";
      el("path", { d: `M${x - G.W / 2 + 2},${base} L${x + G.W / 2 - 2},${base} L${x},${tip} Z`, fill: color,
        stroke: "#00000033", "stroke-width": 1 }, svg);
      if (targets.includes(p)) {
        el("path", { d: `M${x - G.W / 2 + 2},${base} L${x + G.W / 2 - 2},${base} L${x},${tip} Z`,
          fill: "#ffe14a", "fill-opacity": ".55", stroke: "#ffd000", "stroke-width": 3, class: "glow" }, svg);
      }
      // point numbers on the frame, your numbering
      text(svg, x, isTop(p) ? 19 : 742, String(p), { "font-size": 13, fill: "#f1dcb5", "fill-opacity": ".85" });
    }

    // checkers
    for (const pt of b.points) {
      stack(svg, pt.point, pt.you, youColor, selected === pt.point, selected === null && dests[String(pt.point)]);
      stack(svg, pt.point, pt.computer, compColor, false);
    }
    // the bar: yours below the middle, the computer's above
    for (let i = 0; i < Math.min(b.bar.you, 4); i++) {
      const last = i === Math.min(b.bar.you, 4) - 1;
      checker(svg, G.BAR_X, G.MID + 70 + 2 * G.R * i, youColor, last && b.bar.you > 4 ? String(b.bar.you) : "",
        last && selected === 25 ? { stroke: "#ffd84a", "stroke-width": 5 }
          : last && selected === null && dests["25"] ? { stroke: "#ffd84a", "stroke-width": 2.5 } : undefined);
    }
    for (let i = 0; i < Math.min(b.bar.computer, 4); i++) {
      const last = i === Math.min(b.bar.computer, 4) - 1;
      checker(svg, G.BAR_X, G.MID - 70 - 2 * G.R * i, compColor, last && b.bar.computer > 4 ? String(b.bar.computer) : "");
    }
    // borne-off trays: yours below, the computer's above
    drawTray(svg, b.off.you, youColor, false, targets.includes(0));
    drawTray(svg, b.off.computer, compColor, true, false);

    // pip counts by the trays
    text(svg, G.TRAY_X + G.TRAY_W / 2 + 50, G.BOTTOM - 12, `${b.pips.you}`, { "font-size": 16, fill: "#f1ead9" });
    text(svg, G.TRAY_X + G.TRAY_W / 2 + 50, G.BOTTOM - 32, "pips", { "font-size": 12, fill: "#cdbf9f" });
    text(svg, G.TRAY_X + G.TRAY_W / 2 + 50, G.TOP + 12, `${b.pips.computer}`, { "font-size": 16, fill: "#f1ead9" });
    text(svg, G.TRAY_X + G.TRAY_W / 2 + 50, G.TOP + 32, "pips", { "font-size": 12, fill: "#cdbf9f" });
    text(svg, G.TRAY_X + G.TRAY_W / 2 + 50, G.MID + 40, "you", { "font-size": 13, fill: "#cdbf9f" });
    text(svg, G.TRAY_X + G.TRAY_W / 2 + 50, G.MID - 40, "computer", { "font-size": 13, fill: "#cdbf9f" });

    // the cube: top = the computer owns it, middle = centred, bottom = you own it
    const c = state.game.cube;
    const crawford = state.match.crawford && !state.match.money && state.game.phase !== "over";
    if (!crawford) {
      const cy = c.owner === "you" ? G.BOTTOM - 40 : c.owner === "computer" ? G.TOP + 40 : G.MID;
      cube(svg, 42, cy, c.value === 1 && !c.owner ? 64 : c.value, 50);
    } else {
      text(svg, 42, G.MID, "CRAWFORD", { "font-size": 11, fill: "#ffd7a0", transform: `rotate(-90 42 ${G.MID})` });
    }
    if (c.offered) {   // a double waiting for an answer, in the middle of the answering side's half
      const x = c.offered_by === "you" ? (G.LEFT + G.BAR_L) / 2 : (G.BAR_R + G.RIGHT) / 2;
      cube(svg, x, G.MID, c.offered, 68, c.offered_by === "you" ? "you double" : "the computer doubles");
    }

    // dice: the roller's on its right-hand half
    const g = state.game;
    if (g.dice) {
      const mine = g.on_roll === "you";
      const palette = mine ? youColor : compColor;
      const cx = mine ? (G.BAR_R + G.RIGHT) / 2 : (G.LEFT + G.BAR_L) / 2;
      const dice = g.dice[0] === g.dice[1] ? [g.dice[0], g.dice[0]] : g.dice;
      const left = moves ? moves.dice_left.slice() : null;
      const used = dice.map((v) => {
        if (!left) return false;
        const i = left.indexOf(v);
        if (i >= 0) { left.splice(i, 1); return false; }
        return true;
      });
      if (g.dice[0] === g.dice[1] && moves) {   // doubles: dim as the four moves are used
        const n = moves.dice_left.length;
        used[0] = n < 2; used[1] = n < 1;
      }
      die(svg, cx - 36, G.MID, dice[0], palette, used[0]);
      die(svg, cx + 36, G.MID, dice[1], palette, used[1]);
    }
    if (g.resignation) {
      const x = g.resignation.by === "you" ? (G.BAR_R + G.RIGHT) / 2 : (G.LEFT + G.BAR_L) / 2;
      const flag = el("g", {}, svg);
      el("rect", { x: x - 70, y: G.MID - 24, width: 140, height: 48, rx: 8, fill: "#f7f2e6", stroke: "#2b2018",
        "stroke-width": 2 }, flag);
      text(flag, x, G.MID, `resigns ×${g.resignation.level}`, { "font-size": 18, fill: "#2b2018" });
    }
    if (g.outcome) {
      const banner = el("g", {}, svg);
      el("rect", { x: 330, y: G.MID - 34, width: 460, height: 68, rx: 12, fill: "#000000b0", stroke: "#e0b84a",
        "stroke-width": 2 }, banner);
      const who = g.outcome.winner === "you" ? "You win" : "The computer wins";
      const pts = g.outcome.points;
      text(banner, 560, G.MID, `${who} ${pts} point${pts === 1 ? "" : "s"}`, { "font-size": 28, fill: "#ffe9b0" });
    }

    // click targets: one per point column, the bar and your tray
    const sources = Object.keys(dests).map(Number);
    for (let p = 1; p <= 24; p++) {
      const x = pointX(p);
      const y = isTop(p) ? G.TOP : G.MID;
      hit(svg, x - G.W / 2, y, G.W, G.MID - G.TOP, p, sources.includes(p), targets.includes(p));
    }
    hit(svg, G.BAR_L, G.MID + 30, G.BAR_R - G.BAR_L, G.BOTTOM - G.MID - 30, 25, sources.includes(25), false);
    hit(svg, G.TRAY_X, G.MID + 8, G.TRAY_W, G.BOTTOM - G.MID - 8, 0, false, targets.includes(0));
  }

  function drawTray(svg, n, palette, top, glow) {
    const h = 20;
    for (let i = 0; i < n; i++) {
      const y = top ? G.TOP + 6 + i * (h + 2) : G.BOTTOM - 6 - h - i * (h + 2);
      el("rect", { x: G.TRAY_X + 4, y, width: G.TRAY_W - 8, height: h, rx: 4, fill: palette.fill,
        stroke: palette.stroke, "stroke-width": 1.5 }, svg);
    }
    if (glow) {
      el("rect", { x: G.TRAY_X, y: G.MID + 8, width: G.TRAY_W, height: G.BOTTOM - G.MID - 8, rx: 6,
        fill: "#ffe14a", "fill-opacity": ".45", stroke: "#ffd000", "stroke-width": 3 }, svg);
    }
    if (n) {
      const y = top ? G.MID - 24 : G.MID + 24;
      text(svg, G.TRAY_X + G.TRAY_W / 2, y, String(n), { "font-size": 15, fill: "#f1ead9" });
    }
  }

  function hit(svg, x, y, w, h, point, src, dest) {
    const cls = ["hit"];
    if (src) cls.push("src");
    if (dest) cls.push("dest");
    const r = el("rect", { x, y, width: w, height: h, fill: "#ffffff", "fill-opacity": 0, class: cls.join(" "),
      "data-point": point }, svg);
    r.addEventListener("click", () => clickPoint(point));
  }

  function clickPoint(point) {
    if (!game || !game.moves || busy) return;
    const dests = game.moves.destinations;
    if (selected !== null && (dests[String(selected)] || []).includes(point)) {
      const from = selected;
      run(() => act({ action: "move", from, to: point }));
      return;
    }
    if (dests[String(point)]) {
      selected = selected === point ? null : point;
    } else {
      selected = null;
    }
    drawBoard(game);
    bump();
  }

  // -- the rest of the page ----------------------------------------------------------------
  function status(state) {
    const g = state.game, m = state.match, a = state.actions;
    if (m.over) return m.winner === "you" ? "You have won the match!" : "The computer has won the match.";
    if (g.phase === "over") {
      const o = g.outcome;
      const who = o.winner === "you" ? "You win" : "The computer wins";
      return `${who} ${o.points} point${o.points === 1 ? "" : "s"} (${o.ending}). ` +
        (a.includes("next") ? "Start the next game." : "");
    }
    if (g.phase === "opening") return "Roll to decide who starts.";
    if (g.turn !== "you") return "The computer is thinking…";
    if (g.phase === "doubled") return `The computer doubles to ${g.cube.offered}: take or pass?`;
    if (g.phase === "resigned") return `The computer offers to resign (×${g.resignation.level}): accept or reject?`;
    if (g.phase === "turn") return a.includes("double") ? "Your turn: roll or double." : "Your turn: roll.";
    if (g.phase === "play") {
      if (state.moves && state.moves.complete) return "Confirm your play, or undo a move.";
      return `Move ${g.dice[0]}-${g.dice[1]}: click a checker, then a highlighted point.`;
    }
    return "";
  }

  function scoreboard(state) {
    const m = state.match;
    const box = $("scoreboard");
    box.replaceChildren();
    const add = (cls, content) => { const s = document.createElement("span"); s.className = cls; s.textContent = content; box.appendChild(s); return s; };
    add("kind", m.money ? `Money game ${m.game}` : `${m.length}-point match, game ${m.game}`);
    add("score", `You ${m.score.you} – ${m.score.computer} Computer`);
    add("level", `Level: ${state.level}`);
    if (m.crawford && !m.money) add("tag", "Crawford");
    else if (m.post_crawford) add("tag", "post-Crawford");
  }

  function drawLog(state) {
    const list = $("log");
    list.replaceChildren();
    for (const game of state.log) {
      if (state.log.length > 1 || !state.match.money) {
        const li = document.createElement("li");
        li.className = "note";
        li.textContent = `Game ${game.game} — score ${game.score.you}-${game.score.computer}${game.crawford ? " (Crawford)" : ""}`;
        list.appendChild(li);
      }
      for (const line of game.lines) {
        const li = document.createElement("li");
        li.className = line.player || "note";
        li.textContent = (line.player === "you" ? "You: " : line.player === "computer" ? "Computer: " : "") + line.text;
        list.appendChild(li);
      }
    }
    list.scrollTop = list.scrollHeight;
  }

  function drawHint(h) {
    const box = $("hint");
    box.replaceChildren();
    const f = (x) => (x >= 0 ? "+" : "") + x.toFixed(3);
    const pct = (x) => (100 * x).toFixed(1) + "%";
    if (h.kind === "play") {
      const table = document.createElement("table");
      table.innerHTML = "<thead><tr><th>Play</th><th>Equity</th><th>Diff</th><th>Win</th><th>Gammon</th></tr></thead>";
      const body = document.createElement("tbody");
      h.plays.forEach((p, i) => {
        const tr = document.createElement("tr");
        tr.className = (i === 0 ? "best " : "") + "pick";
        for (const v of [p.play || "(no move)", f(p.equity), i === 0 ? "" : f(p.difference),
          pct(p.probabilities.win), pct(p.probabilities.win_gammon)]) {
          const td = document.createElement("td");
          td.textContent = v;
          tr.appendChild(td);
        }
        tr.title = "Click to put this play in the notation box";
        tr.addEventListener("click", () => { $("notation-text").value = p.play; });
        body.appendChild(tr);
      });
      table.appendChild(body);
      box.appendChild(table);
      const note = document.createElement("p");
      note.className = "muted small";
      note.textContent = `${h.count} legal play${h.count === 1 ? "" : "s"}; cubeless equity, searched ${h.ply}-ply.`;
      box.appendChild(note);
    } else {
      const p = document.createElement("p");
      const advice = h.kind === "take" ? `Advice: ${h.take}.` : `Advice: ${h.action}.`;
      p.innerHTML = "";
      const strong = document.createElement("strong");
      strong.textContent = advice;
      p.appendChild(strong);
      box.appendChild(p);
      const table = document.createElement("table");
      for (const [k, v] of [["No double", h.no_double], ["Double, take", h.double_take], ["Double, pass", h.double_pass]]) {
        const tr = document.createElement("tr");
        const a = document.createElement("td"); a.textContent = k;
        const b = document.createElement("td"); b.textContent = f(v);
        tr.append(a, b);
        table.appendChild(tr);
      }
      box.appendChild(table);
      if (!h.can_double && h.reason && h.kind === "cube") {
        const r = document.createElement("p"); r.className = "muted small"; r.textContent = h.reason; box.appendChild(r);
      }
    }
  }

  function show(state) {
    const turnChanged = !game || game.id !== state.id || JSON.stringify(game.log) !== JSON.stringify(state.log);
    game = state;
    window.backgammonState = state;   // for tests and the curious; the page itself keeps `game`
    if (turnChanged && !state.hint) $("hint").innerHTML = '<p class="muted">Ask for a hint on your turn.</p>';
    localStorage.setItem(STORE_KEY, state.id);
    if (selected !== null && !(state.moves && state.moves.destinations[String(selected)])) selected = null;
    drawBoard(state);
    scoreboard(state);
    drawLog(state);
    $("status").textContent = status(state);
    $("said").textContent = (state.said || []).join(" ");
    const a = state.actions;
    for (const btn of document.querySelectorAll(".controls button[data-action]")) {
      const name = btn.dataset.action;
      if (name === "resign") continue;
      btn.hidden = !a.includes(name);
    }
    $("btn-undo").textContent = state.moves && state.moves.steps.length ? "Undo move" : "Undo last play";
    $("resign-group").hidden = !a.includes("resign");
    $("notation").hidden = !a.includes("play");
    if (state.hint) drawHint(state.hint);
    $("save-mat").href = `/api/games/${state.id}/mat`;
    $("save-sgf").href = `/api/games/${state.id}/sgf`;
    bump();
  }

  function bump() {
    version += 1;
    document.body.dataset.version = String(version);
  }

  // -- wiring ------------------------------------------------------------------------
  function wire() {
    for (const btn of document.querySelectorAll(".controls button[data-action]")) {
      btn.addEventListener("click", () => {
        const name = btn.dataset.action;
        if (!game) return;
        if (name === "resign") {
          run(() => act({ action: "resign", level: Number($("resign-level").value) }));
        } else if (name === "hint") {
          run(() => act({ action: "hint" }));
        } else {
          run(() => act({ action: name }));
        }
      });
    }
    $("notation").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const play = $("notation-text").value.trim();
      if (!game) return;
      run(async () => {
        if (game.moves && game.moves.steps.length) await act({ action: "undo", what: "moves" });
        await act({ action: "play", play });
        $("notation-text").value = "";
      });
    });
    $("newgame").addEventListener("submit", (ev) => {
      ev.preventDefault();
      run(() => newGame({ length: Number($("ng-length").value), level: $("ng-level").value,
        side: Number($("ng-side").value) }));
    });
    $("resume-file").addEventListener("change", (ev) => {
      const file = ev.target.files && ev.target.files[0];
      if (!file) return;
      run(async () => {
        if (file.size > 60000) throw new Error("that file is too large for a saved game");
        const content = await file.text();
        const format = /\.sgf$/i.test(file.name) ? "sgf" : "mat";
        await newGame({ level: $("ng-level").value, side: Number($("ng-side").value),
          resume: { format, text: content } });
        ev.target.value = "";
      });
    });
    document.addEventListener("keydown", (ev) => {
      if (ev.target && ev.target.tagName === "INPUT") return;
      if (!game) return;
      if (ev.key === "r" && game.actions.includes("roll")) run(() => act({ action: "roll" }));
      else if (ev.key === "Enter" && game.actions.includes("commit")) run(() => act({ action: "commit" }));
      else if ((ev.key === "u" || ev.key === "Backspace") && game.actions.includes("undo")) run(() => act({ action: "undo" }));
    });
  }

  async function start() {
    wire();
    await run(async () => {
      const id = localStorage.getItem(STORE_KEY);
      if (id) {
        try {
          show(await api("GET", `/api/games/${encodeURIComponent(id)}`));
          return;
        } catch (e) {
          if (e.status !== 404) throw e;
          localStorage.removeItem(STORE_KEY);
        }
      }
      $("newgame-box").open = true;
      await newGame({ length: Number($("ng-length").value), level: $("ng-level").value,
        side: Number($("ng-side").value) });
    });
  }

  window.addEventListener("DOMContentLoaded", start);
})();
