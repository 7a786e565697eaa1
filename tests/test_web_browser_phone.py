"""The page on a phone: a 390x844 portrait viewport with touch (Chromium's
mobile emulation).  The whole board and its controls fit with no
horizontal scroll, every label is at least 11 CSS px, every control is a
tap target of at least 32x32 px, the header keeps each of its items on
one line, and a checker moves by a touch drag."""
from __future__ import annotations

import pytest

from test_web_browser import Page, chrome, human_starts, find_seed, server  # noqa: F401  (fixtures)

WIDTH, HEIGHT = 390, 844

LAYOUT = r"""
const de = document.documentElement;
const shown = (el) => {
  if (!el.getClientRects().length) return false;
  for (let e = el; e; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (s.display === 'none' || s.visibility === 'hidden' || e.hidden) return false;
  }
  return true;
};
const out = {scrollWidth: de.scrollWidth, clientWidth: de.clientWidth, small: [], narrow: [], wrapped: [], outside: []};
// labels: every element with text of its own, and the board's SVG text at its drawn size
for (const el of document.body.querySelectorAll('*')) {
  if (el.closest('svg') || !shown(el)) continue;
  const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own) continue;
  const size = parseFloat(getComputedStyle(el).fontSize);
  if (size < 11) out.small.push([el.tagName, el.id || el.className, el.textContent.trim().slice(0, 30), size]);
  const r = el.getBoundingClientRect();
  if (r.right > de.clientWidth + 0.5 || r.left < -0.5) out.outside.push([el.tagName, el.id, el.textContent.trim().slice(0, 30)]);
}
const board = document.getElementById('board');
if (shown(board)) {
  const scale = board.getScreenCTM().a;
  out.boardScale = scale;
  for (const t of board.querySelectorAll('text')) {
    const size = parseFloat(getComputedStyle(t).fontSize) * scale;
    if (size < 11) out.small.push(['svg text', t.getAttribute('class') || '', t.textContent, size]);
  }
  const r = board.getBoundingClientRect();
  out.board = [r.left, r.right, r.top, r.bottom];
  out.points = Array.from(board.querySelectorAll('.hits rect')).map(h => {
    const b = h.getBoundingClientRect(); return [Number(h.dataset.point), b.width, b.height]; });
}
// tap targets
const taps = 'button, a, select, input[type=text], input[type=file], summary, .choices label, .toggles label, .dialog .check';
for (const el of document.querySelectorAll(taps)) {
  if (!shown(el)) continue;
  const r = el.getBoundingClientRect();
  if (r.width < 32 || r.height < 32) out.narrow.push([el.tagName, el.id || el.className, el.textContent.trim().slice(0, 30), r.width, r.height]);
  if (r.right > de.clientWidth + 0.5 || r.left < -0.5) out.outside.push([el.tagName, el.id, el.textContent.trim().slice(0, 30)]);
}
// the header: each of its items on one line (a text broken over lines has line boxes at two heights)
const header = document.querySelector('header.top');
out.header = header.getBoundingClientRect().height;
for (const el of header.querySelectorAll('*')) {
  if (!shown(el) || el.closest('svg')) continue;
  for (const n of el.childNodes) {
    if (n.nodeType !== 3 || !n.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const tops = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
    if (tops.size > 1) out.wrapped.push(n.textContent.trim());
  }
}
return out;
"""


@pytest.fixture(scope="module")
def phone():
    drv = chrome(WIDTH, HEIGHT, mobile=True)
    yield drv
    drv.quit()


def check_layout(page, where):
    out = page.js(LAYOUT)
    assert out["clientWidth"] == WIDTH, out["clientWidth"]
    assert out["scrollWidth"] <= out["clientWidth"], f"{where}: horizontal scroll ({out['scrollWidth']} px)"
    assert not out["outside"], f"{where}: beyond the screen's width: {out['outside']}"
    assert not out["small"], f"{where}: labels under 11 px: {out['small']}"
    assert not out["narrow"], f"{where}: tap targets under 32 px: {out['narrow']}"
    assert not out["wrapped"], f"{where}: the header wraps: {out['wrapped']}"
    assert out["header"] <= 60, f"{where}: the header is {out['header']} px high"
    return out


def test_phone_portrait(phone, server):  # noqa: F811
    """Lobby, a move by touch, the hint, the settings, the confirmation and the lobby again."""
    seed = find_seed(server, human_starts)
    page = Page(phone, server)
    page.fresh()
    assert page.screen() == "lobby"
    check_layout(page, "lobby")
    page.shot("10-phone-lobby", "window")
    page.start(seed=seed)
    out = check_layout(page, "new game")
    left, right, top, bottom = out["board"]
    assert left >= 0 and right <= WIDTH and bottom - top > 250, out["board"]
    # the points: as tall as a thumb, as wide as 24 columns and the bar allow on 390 px
    for point, w, h in out["points"]:
        assert h >= 32 and w >= 24, (point, w, h)
    page.click("btn-roll")
    s = page.state()
    assert page.page_state() == "move", s["game"]
    # the board and the buttons under it are on the first screen
    controls = page.js("return Array.from(document.querySelectorAll('.controls button, .controls select'))"
                       ".filter(b => b.offsetParent).map(b => b.getBoundingClientRect().bottom)")
    assert controls and max(controls) <= HEIGHT, controls
    m = s["moves"]
    frm, to = next((int(f), int(t)) for f, ts in m["destinations"].items() for t in ts)
    page.drag(frm, to, touch=True)
    assert page.body("pointer") == "touch"
    assert page.state()["moves"]["steps"] == [[frm, to]]
    page.key("h")
    check_layout(page, "a move made, the hint shown")
    page.shot("11-phone-game", "window")
    page.js("window.scrollTo(0, document.body.scrollHeight)")
    page.shot("12-phone-game-below", "window")
    page.js("window.scrollTo(0, 0)")
    page.click("btn-settings")
    check_layout(page, "settings")
    page.shot("13-phone-settings", "window")
    page.click("settings-close")
    # back to the lobby: the confirmation, then the unfinished game offered
    page.click("btn-lobby")
    page.wait_for("return document.body.dataset.overlay === 'confirm'")
    check_layout(page, "the confirmation")
    page.confirm()
    assert phone.find_element("id", "continue-card").is_displayed()
    check_layout(page, "the lobby with a game to continue")
    page.shot("14-phone-lobby-continue", "window")
    page.assert_no_errors()
