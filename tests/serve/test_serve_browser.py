"""``referee serve`` as people use it: phones (390 px wide browser contexts) and the
shared screen in Debian's chromium, driven by Playwright, every move a tap.

Screenshots go to ``$REFEREE_SCREENSHOTS`` (or the test's temporary folder)."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import referee

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason="the browser tests drive Debian's chromium (apt-get install chromium), "
           "which is not installed here")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="playwright is not installed (pip install '.[test]')")

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
QUICK = Path(__file__).parent / "quick-fish.rules"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
SCREEN = {"viewport": {"width": 1280, "height": 720}}
WAIT = 60_000  # milliseconds a page may take to show a change (a CI machine is slow)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("REFEREE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Page:
    """One browser context on one page, with every WebSocket frame it received and the
    script errors it raised (both told, with what it shows, when a wait times out)."""

    def __init__(self, browser: Any, url: str, device: dict[str, Any]) -> None:
        self.context = browser.new_context(**device)
        self.context.set_default_timeout(WAIT)
        self.page = self.context.new_page()
        self.frames: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda data: self.frames.append(json.loads(data))))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        OPEN.append(self)
        self.page.goto(url)

    def wait_until(self, expression: str, what: str) -> None:
        """Wait for ``expression`` to hold in the page, polled on a timer (a page's
        animation frames may stall in a busy headless browser); on a timeout, fail
        telling what every open page shows."""
        try:
            self.page.wait_for_function(expression, timeout=WAIT, polling=100)
        except sync_api.Error as error:
            pytest.fail(f"{self.label()} did not show {what} within {WAIT // 1000} s "
                        f"({str(error).splitlines()[0]})\n{_every_page()}")

    def wait_version(self, version: int) -> None:
        self.wait_until(f"Number(document.body.dataset.version || -1) >= {version}",
                        f"version {version}")

    def tap(self, name: str) -> None:
        self.page.get_by_role("button", name=name, exact=True).first.tap()

    def text(self, selector: str = "body") -> str:
        return str(self.page.inner_text(selector))

    def label(self) -> str:
        return str(self.page.url).split("#")[0]

    def describe(self) -> str:
        """What the page shows now, and what it was sent."""
        try:
            shown = self.page.evaluate("""() => [document.body.dataset.version,
                document.visibilityState, document.getElementById("dot")?.className,
                document.getElementById("hand-typed")?.value,
                document.getElementById("toast")?.textContent,
                document.body.innerText.replace(/\\s+/g, " ").slice(0, 600)]""")
        except sync_api.Error as error:
            shown = [f"(not readable: {error})"]
        sent = [(frame.get("version"), frame.get("legal_ready")) for frame in self.frames]
        return (f"{self.label()}: version, visibility, dot, typed cards, toast, text = "
                f"{shown}\n  frames (version, moves) {sent[-8:]}; script errors "
                f"{self.errors}")

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
            self.context.close()


OPEN: list[Page] = []  # the pages of the test running


def _every_page() -> str:
    return "\n".join(page.describe() for page in OPEN)


@pytest.fixture(autouse=True)
def _pages_closed() -> Iterator[None]:
    """Every page a test opened is closed after it, passed or failed (a failed test's
    pages must not keep loading the next test's browser and server)."""
    yield
    for page in list(OPEN):
        page.close()


def _version(server: Any, made: dict[str, Any]) -> int:
    return server.version(made["table"], made["host"])


def _enter_hand(phone: Page, cards: list[str]) -> None:
    """Tap "Enter my hand" (the cards tapped or typed already), and wait until the page
    shows that hand entered: the next phone acts only once this one's hand is in."""
    phone.tap("Enter my hand")
    phone.wait_until(f"document.getElementById('entry').classList.contains('hidden') && "
                     f"document.getElementById('hand').innerText.split(/\\s+/).sort().join(' ')"
                     f" === {json.dumps(' '.join(sorted(cards)))}", "its hand entered")


def _tap_move(phone: Page, seat: str, move: str) -> None:
    """Make ``move`` on ``seat``'s phone by tapping: whom to ask, then for what."""
    words = move.split()
    if words[1] == "asks":
        phone.tap(words[2])
        phone.tap(" ".join(words[4:]))
    elif move == f"{seat} draws":
        phone.tap("I drew a card")
    else:
        phone.tap(move.removeprefix(seat + " "))


def _hands_now(server: Any, table: str) -> dict[str, set[str]]:
    path = Path(server.data) / f"{table}.txt"
    game = referee.Game.from_transcript(path.read_text(), source=str(path))
    return {name: set(game.view(name).hand or ()) for name in game.players}


def _no_other_hand(pages: dict[str, Page], hands_then: dict[int, dict[str, set[str]]],
                   hands: dict[str, set[str]]) -> None:
    """No frame a seat's page received (checked against the hands of its version), nor
    its hand on screen now, holds another's cards; no frame the screen received holds a
    hand, nor does the screen show a card of one."""
    for seat, page in pages.items():
        for frame in page.frames:
            if seat == "":
                assert "hand" not in frame["view"]
            elif frame["version"] in hands_then:
                then = hands_then[frame["version"]]
                others = set().union(*(cards for name, cards in then.items() if name != seat))
                assert not others & set(frame["view"]["hand"]), (seat, frame["version"])
        others = set().union(*(cards for name, cards in hands.items() if name != seat))
        if seat:
            shown = set(page.text("#hand").split())
            assert not others & shown, (seat, shown)
        else:
            assert not set().union(*hands.values()) & set(page.text().split())


def test_phones_and_a_screen_play_a_whole_game_by_tapping(server: Any, browser: Any,
                                                          shots: Path) -> None:
    players = ["Ann", "Bob", "Cy"]
    made = server.new_table(rules_text=QUICK.read_text(), players=players, deal={"seed": 5})
    phones = {name: Page(browser, made["seats"][name]["url"], PHONE) for name in players}
    screen = Page(browser, made["screen"], SCREEN)
    pages = {**phones, "": screen}
    for page in pages.values():
        page.wait_version(0)
    assert "#t=" not in phones["Ann"].page.url  # the token went to storage
    rng = random.Random(5)
    hands_then: dict[int, dict[str, set[str]]] = {}
    for step in range(80):
        seen = server.get(f"/api/tables/{made['table']}?token={made['host']}")[1]
        hands_then[seen["version"]] = _hands_now(server, made["table"])
        if seen["awaiting"]["phase"] == "over":
            break
        choices = []
        for name in seen["awaiting"]["players"]:
            legal = server.get(f"/api/tables/{made['table']}?token="
                               f"{made['seats'][name]['token']}")[1]["legal"]
            choices += [(name, move) for move in legal]
        seat, move = rng.choice(choices)
        if step == 1:
            phones[seat].page.screenshot(path=str(shots / "phone-to-move.png"))
            screen.page.screenshot(path=str(shots / "screen-mid-game.png"))
        _tap_move(phones[seat], seat, move)
        version = seen["version"] + 1
        for page in pages.values():
            page.wait_version(version)
    else:
        pytest.fail("the game did not end")
    assert "Over:" in screen.text("#outcome")
    assert "Over:" in phones["Bob"].text("#outcome")
    screen.page.screenshot(path=str(shots / "screen-over.png"))
    phones["Ann"].page.screenshot(path=str(shots / "phone-over.png"), full_page=True)
    assert referee.check_file(Path(server.data) / f"{made['table']}.txt").ok
    hands = _hands_now(server, made["table"])
    hands_then[seen["version"]] = hands
    _no_other_hand(pages, hands_then, hands)
    for page in pages.values():
        page.close()


def test_hands_entered_by_tapping_a_reload_a_restart_and_a_contradiction(
        tmp_path: Path, start_process: Any, browser: Any, shots: Path) -> None:
    players = ["Ann", "Bob"]
    rules = referee.load_rules(str(QUICK))
    dealt = {name: list(referee.Game.new(rules, players, deal=referee.Deal.seed(8))
                        .view(name).hand or ()) for name in players}
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    with start_process(tmp_path, port) as (server, process):
        made = server.new_table(rules_text=QUICK.read_text(), players=players)
        table = made["table"]
        phones = {name: Page(browser, made["seats"][name]["url"], PHONE) for name in players}
        host = Page(browser, made["host_url"], PHONE)
        screen = Page(browser, made["screen"], SCREEN)
        pages: dict[str, Page] = {**phones, "": screen}
        for page in [*pages.values(), host]:
            page.wait_version(0)
        phones["Ann"].page.screenshot(path=str(shots / "phone-enter-hand.png"), full_page=True)
        for name in players:  # each phone taps its own cards
            for card in dealt[name]:
                phones[name].tap(card)
            _enter_hand(phones[name], dealt[name])
        version = _version(server, made)
        for page in pages.values():
            page.wait_version(version)
        assert phones["Bob"].text("#hand").split() == dealt["Bob"]
        assert "hand entered" in screen.text()

        wrong = Page(browser, made["seats"]["Ann"]["url"].split("#")[0] + "#t=" + "x" * 43,
                     PHONE)
        wrong.page.get_by_text("no longer works").wait_for(timeout=WAIT)
        wrong.close()

        def tap_next() -> None:
            seen = server.get(f"/api/tables/{table}?token={made['host']}")[1]
            seat = seen["awaiting"]["players"][0]
            legal = server.get(f"/api/tables/{table}?token="
                               f"{made['seats'][seat]['token']}")[1]["legal"]
            _tap_move(phones[seat], seat, legal[0])
            for page in pages.values():
                page.wait_version(seen["version"] + 1)

        tap_next()
        tap_next()
        phones["Ann"].page.screenshot(path=str(shots / "phone-after-answer.png"))

        phones["Bob"].page.reload()  # the token is in storage now
        phones["Bob"].wait_version(_version(server, made))
        assert phones["Bob"].text("#who") == "Bob"
        assert phones["Bob"].text("#hand").split()

        process.send_signal(signal.SIGKILL)
        process.wait(10)
    with start_process(tmp_path, port) as (server, _):
        for page in pages.values():  # the phones reconnect by themselves
            page.wait_until("document.getElementById('dot').classList.contains('on')",
                            "a connection again")
        tap_next()

        hands = _hands_now(server, table)
        seen = server.get(f"/api/tables/{table}?token={made['host']}")[1]
        assert seen["awaiting"]["phase"] == "ask"  # the deal of seed 8 comes to an ask here
        asker = seen["awaiting"]["players"][0]
        other = next(name for name in players if name != asker)
        rank = next(card[:-1] for card in sorted(hands[asker])
                    if any(c[:-1] == card[:-1] for c in hands[other]))
        host.page.fill("#typed", f"{asker} asks {other} for {rank}")
        host.tap("Send")
        host.wait_version(seen["version"] + 1)
        host.page.fill("#typed", f"{other} says no")
        host.tap("Send")
        host.page.get_by_role("button", name="Accept it (the table's word)").wait_for(
            timeout=WAIT)
        assert "contradicts the cards" in screen.page.inner_text("#notices")
        host.page.screenshot(path=str(shots / "host-contradiction.png"), full_page=True)
        screen.page.screenshot(path=str(shots / "screen-contradiction.png"))
        host.tap("Accept it (the table's word)")
        host.page.get_by_role("button", name="Accept it (the table's word)").wait_for(
            state="hidden", timeout=WAIT)
        text = (tmp_path / f"{table}.txt").read_text()
        assert f"{other} says no\n# accepted by the table:" in text
        hands = _hands_now(server, table)
        _no_other_hand(pages, {_version(server, made): hands}, hands)
        for page in [*pages.values(), host]:
            page.close()


def test_cards_typed_into_the_hand_box_survive_another_seat_entering_its_hand(
        server: Any, browser: Any) -> None:
    players = ["Ann", "Bob"]
    rules = referee.load_rules(str(QUICK))
    dealt = {name: list(referee.Game.new(rules, players, deal=referee.Deal.seed(3))
                        .view(name).hand or ()) for name in players}
    made = server.new_table(rules_text=QUICK.read_text(), players=players)
    ann = Page(browser, made["seats"]["Ann"]["url"], PHONE)
    ann.wait_version(0)
    ann.page.fill("#hand-typed", " ".join(dealt["Ann"][:2]))
    ann.page.focus("#hand-typed")
    status, answer = server.post(f"/api/tables/{made['table']}/hand",
                                 {"token": made["seats"]["Bob"]["token"], "cards": dealt["Bob"]})
    assert status == 200 and answer["accepted"], answer
    ann.wait_version(1)  # Bob's hand arrived and the page was drawn again
    assert ann.page.input_value("#hand-typed") == " ".join(dealt["Ann"][:2])
    assert ann.page.evaluate("document.activeElement.id") == "hand-typed"
    ann.page.type("#hand-typed", " " + " ".join(dealt["Ann"][2:]))
    ann.tap("Enter my hand")
    ann.wait_version(2)
    assert ann.text("#hand").split() == dealt["Ann"]
    ann.close()


def test_the_host_enters_moves_for_anyone_by_tapping(server: Any, browser: Any) -> None:
    players = ["Ann", "Bob", "Cy"]
    made = server.new_table(rules_text=QUICK.read_text(), players=players)
    table, token = made["table"], made["host"]
    host = Page(browser, made["host_url"], PHONE)
    host.wait_version(0)
    rng = random.Random(2)
    for _ in range(80):
        seen = server.get(f"/api/tables/{table}?token={token}")[1]
        if seen["awaiting"]["phase"] == "over":
            break
        assert seen["legal"], seen["awaiting"]
        move = rng.choice(seen["legal"])
        words = move.split()
        if words[1] == "asks":
            host.tap(f"{words[0]} asks…")
            host.tap(words[2])
            host.tap(" ".join(words[4:]))
        else:
            host.tap(move)
        host.wait_version(seen["version"] + 1)
        assert Path(server.data, f"{table}.txt").read_text().splitlines()[-1] == move
    else:
        pytest.fail("the game did not end")
    verdict = referee.check_file(Path(server.data) / f"{table}.txt")
    assert verdict.ok and verdict.outcome is not None
    host.close()


def test_literature_a_claim_built_card_by_card_and_the_shows(server: Any, browser: Any,
                                                             shots: Path) -> None:
    players = ["A", "B", "C", "D", "E", "F"]
    truth = referee.Game.new("literature", players, deal=referee.Deal.seed(4))
    dealt = {name: list(truth.view(name).hand or ()) for name in players}
    made = server.new_table(game="literature", players=players)
    phones = {name: Page(browser, made["seats"][name]["url"], PHONE) for name in players}
    screen = Page(browser, made["screen"], SCREEN)
    for name in players:
        phones[name].wait_version(0)
        phones[name].page.fill("#hand-typed", " ".join(dealt[name]))  # typed, this time
        _enter_hand(phones[name], dealt[name])
    for page in [*phones.values(), screen]:
        page.wait_version(len(players))
    spades = referee.load_rules("literature").sets["low spades"]
    holder = {card: name for name, cards in dealt.items() for card in cards}
    team = ["A", "C", "E"]
    a = phones["A"]
    a.tap("low spades")
    for index, card in enumerate(spades):  # each card's row of teammates, in order
        guess = holder[card] if holder[card] in team else "C"
        a.page.locator(".claimcard").nth(index).get_by_role("button", name=guess,
                                                              exact=True).tap()
    a.page.screenshot(path=str(shots / "phone-claim.png"), full_page=True)
    a.tap("Claim low spades")
    for page in phones.values():
        page.wait_version(len(players) + 1)
    for name in players:
        mine = [card for card in dealt[name] if card in spades]
        if not mine:
            continue
        phone = phones[name]
        phone.page.get_by_text("Show your cards of the set claimed").wait_for(timeout=WAIT)
        for card in mine:
            phone.page.locator("#moves").get_by_role("button", name=card, exact=True).tap()
        if name == "B":
            phone.page.screenshot(path=str(shots / "phone-show.png"), full_page=True)
        phone.tap("Show " + " ".join(mine))
        phone.wait_until(
            "!document.body.innerText.includes('Show your cards of the set claimed')",
            f"{name}'s cards shown")
    screen.page.get_by_text("low spades").wait_for(timeout=WAIT)
    screen.page.screenshot(path=str(shots / "screen-literature.png"))
    path = Path(server.data) / f"{made['table']}.txt"
    assert referee.check_file(path).ok
    view = referee.Game.from_transcript(path.read_text()).public_view()
    assert "low spades" in [name for names in view.sets.values() for name in names]
    for page in [*phones.values(), screen]:
        page.close()


def test_the_start_page_makes_a_table_and_the_host_page_shows_its_links(
        server: Any, browser: Any, shots: Path) -> None:
    start = Page(browser, server.base + "/", PHONE)
    start.page.select_option("#game", "literature")
    start.page.fill("#players", "Ann Bob Cy Dee Eve Fay")
    start.page.select_option("#dealer", "Cy")
    start.page.screenshot(path=str(shots / "phone-start.png"), full_page=True)
    start.tap("Start the table")
    start.page.wait_for_url("**/host", timeout=WAIT)
    start.page.locator(".qr svg").nth(6).wait_for(timeout=WAIT)  # the screen's and six seats'
    start.page.screenshot(path=str(shots / "phone-host.png"), full_page=True)
    assert "Host · Literature" in start.text("#title")
    seats = start.page.locator(".seatlink a").all()
    assert len(seats) == 7
    ann = Page(browser, str(seats[1].get_attribute("href")), PHONE)
    ann.wait_version(0)
    assert ann.text("#who") == "Ann" and "Dee to claim or ask" in ann.text("#awaiting")
    problem = Page(browser, server.base + "/", PHONE)
    problem.page.select_option("#game", "go-fish")
    problem.page.fill("#players", "Ann")
    problem.tap("Start the table")
    problem.page.get_by_text("2 to 6 players").wait_for(timeout=WAIT)
    for page in (start, ann, problem):
        page.close()
