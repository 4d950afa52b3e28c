"""The state of one game: who holds what, what is laid, whose move it is."""

from __future__ import annotations

from enum import Enum
from typing import Final

from referee.engine.moves import Ask, Claim, Judgement, Question, Transfer
from referee.language.cards import Card
from referee.values import mutable


class Phase(Enum):
    """What the game waits for next."""

    __hash__ = object.__hash__  # members are singletons: hash by identity, fast

    ASK = "ask"            # the player in turn asks
    ANSWER = "answer"      # the asked or questioned player answers
    DRAW = "draw"          # the asker draws after a refusal
    STUCK_DRAW = "stuck"   # a player draws, then the turn passes (stuck, or after a play)
    TURN_UP = "turn up"    # cards are turned from the stock to fill the centre
    PASS = "pass"          # the player in turn, whose hand is empty, names who goes on
    LAY = "lay"            # sets just completed are laid down at once
    SHOW = "show"          # a claim waits for the set's cards to be shown
    OVER = "over"


# Every member also as a plain name, for the modules that test the phase on every event
# (tests/test_lint.py lists them): Python 3.11 reads a member off its Enum class through
# EnumType.__getattr__, a Python-level call that cost a fifth of the checking time.
PHASE_ASK: Final = Phase.ASK
PHASE_ANSWER: Final = Phase.ANSWER
PHASE_DRAW: Final = Phase.DRAW
PHASE_STUCK_DRAW: Final = Phase.STUCK_DRAW
PHASE_TURN_UP: Final = Phase.TURN_UP
PHASE_PASS: Final = Phase.PASS
PHASE_LAY: Final = Phase.LAY
PHASE_SHOW: Final = Phase.SHOW
PHASE_OVER: Final = Phase.OVER


class AfterLay(Enum):
    """What follows once the sets completed by a move are laid at once."""

    __hash__ = object.__hash__  # members are singletons: hash by identity, fast

    DEAL = "the first turn"
    GIVE = "what a yes does"
    DRAW = "what a no does, after the draw"
    STUCK = "the turn passes on"
    GO_ON = "the drawer goes on"


# as PHASE_ASK and others
AFTER_DEAL: Final = AfterLay.DEAL
AFTER_GIVE: Final = AfterLay.GIVE
AFTER_DRAW: Final = AfterLay.DRAW
AFTER_STUCK: Final = AfterLay.STUCK
AFTER_GO_ON: Final = AfterLay.GO_ON


@mutable
class GameState:
    """One game in progress. Seats are indexes into ``players``.

    Sets are won by a side: a seat, or in team games a team (``teams`` gives
    each seat's team). ``laid`` lists each side's sets; ``void`` the sets a
    wrong claim left to nobody.

    A hand is the set of its known cards plus a count of cards the referee
    cannot name (``unknown``); a stock card it cannot name is None, and
    ``unplaced`` holds every card whose place it does not know. With an open
    deal every card is known. ``hidden`` says that the transcript shows only
    what the table sees (NOTATION.md, "Hidden deals").
    """

    players: tuple[str, ...]
    dealer: int
    hands: list[set[Card]]
    unknown: list[int]
    stock: list[Card | None]  # top card last
    laid: list[list[str]]  # by side
    teams: tuple[int, ...]  # each seat's team, when the game has teams
    laid_order: list[tuple[int, str]]  # (side, set)
    void: list[str]
    turn: int
    phase: Phase
    asking: Ask | None
    questioning: Question | None
    centre: list[Card]  # face-up cards, in the order they came
    piles: list[list[Card]]  # captured cards, by side
    completed: list[str]  # sets laid during this ask
    drawn: Card | None  # the card drawn after this ask's refusal, when named
    hidden: bool
    unplaced: set[Card]
    stock_taken: int  # cards taken from the top of the stock since the deal
    laying: dict[int, frozenset[str]]  # seat: sets to look at
    after_lay: AfterLay
    draw_then: AfterLay  # what follows a draw in the stuck-draw phase
    showing: Claim | None  # the claim whose cards are being shown
    judged: tuple[Claim, Judgement] | None  # the claim the last move decided
    revealed: dict[Card, int]  # its cards' holders
    moved: list[Transfer]  # what the last move moved
    finished: set[str]  # the sets out of play: won or void
    deal_last: Card | None  # the last card dealt (to the dealer), when known
    refill_open: tuple[str, ...]  # sets the dealer laid from a hidden deal, unreplaced
    unsure: int | None  # the seat in turn whose only move may be a set by choice
    idle: frozenset[int]  # seats that just showed they had nothing to play


    # written out, not made by the decorator: compiled, it runs natively (a state is
    # made for every game and copied for every undo mark); a list, set or dict left
    # out is made afresh
    def __init__(self, players: tuple[str, ...], dealer: int, hands: list[set[Card]],
                 unknown: list[int], stock: list[Card | None], laid: list[list[str]],
                 teams: tuple[int, ...] = (), laid_order: list[tuple[int, str]] | None = None,
                 void: list[str] | None = None, turn: int = 0, phase: Phase = PHASE_ASK,
                 asking: Ask | None = None, questioning: Question | None = None,
                 centre: list[Card] | None = None, piles: list[list[Card]] | None = None,
                 completed: list[str] | None = None, drawn: Card | None = None,
                 hidden: bool = False, unplaced: set[Card] | None = None, stock_taken: int = 0,
                 laying: dict[int, frozenset[str]] | None = None,
                 after_lay: AfterLay = AFTER_DEAL, draw_then: AfterLay = AFTER_STUCK,
                 showing: Claim | None = None, judged: tuple[Claim, Judgement] | None = None,
                 revealed: dict[Card, int] | None = None, moved: list[Transfer] | None = None,
                 finished: set[str] | None = None, deal_last: Card | None = None,
                 refill_open: tuple[str, ...] = (), unsure: int | None = None,
                 idle: frozenset[int] = frozenset()) -> None:
        self.players = players
        self.dealer = dealer
        self.hands = hands
        self.unknown = unknown
        self.stock = stock
        self.laid = laid
        self.teams = teams
        self.laid_order = [] if laid_order is None else laid_order
        self.void = [] if void is None else void
        self.turn = turn
        self.phase = phase
        self.asking = asking
        self.questioning = questioning
        self.centre = [] if centre is None else centre
        self.piles = [] if piles is None else piles
        self.completed = [] if completed is None else completed
        self.drawn = drawn
        self.hidden = hidden
        self.unplaced = set() if unplaced is None else unplaced
        self.stock_taken = stock_taken
        self.laying = {} if laying is None else laying
        self.after_lay = after_lay
        self.draw_then = draw_then
        self.showing = showing
        self.judged = judged
        self.revealed = {} if revealed is None else revealed
        self.moved = [] if moved is None else moved
        self.finished = set() if finished is None else finished
        self.deal_last = deal_last
        self.refill_open = refill_open
        self.unsure = unsure
        self.idle = idle
    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.phase is PHASE_OVER

    def side(self, seat: int) -> int:
        """The side ``seat`` plays for: its team, or itself."""
        return self.teams[seat] if self.teams else seat

    def decided(self, set_name: str) -> bool:
        """Whether the set is out of play: won by a side, or void."""
        return set_name in self.finished

    def finish(self, set_name: str, side: int | None, *, last: bool = True) -> None:
        """The set is won by ``side``, or void (None); out of play unless more copies
        of it are still to be laid (``last``)."""
        if side is None:
            self.void.append(set_name)
        else:
            self.laid[side].append(set_name)
            self.laid_order.append((side, set_name))
        if last:
            self.finished.add(set_name)

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds, known or not."""
        return len(self.hands[seat]) + self.unknown[seat]

    def stock_card(self, position: int) -> Card | None:
        """The card at a stock position (counted from the top as dealt), if known."""
        return self.stock[len(self.stock) - 1 - (position - self.stock_taken)]

    def copy(self) -> GameState:
        """An independent copy, for undo or look-ahead."""
        return GameState(  # every field, in order: positional, as undo takes one an event
            self.players, self.dealer, [set(h) for h in self.hands], list(self.unknown),
            list(self.stock), [list(s) for s in self.laid], self.teams,
            list(self.laid_order), list(self.void), self.turn, self.phase, self.asking,
            self.questioning, list(self.centre), [list(p) for p in self.piles],
            list(self.completed), self.drawn, self.hidden, set(self.unplaced),
            self.stock_taken, dict(self.laying), self.after_lay, self.draw_then,
            self.showing, self.judged, dict(self.revealed), list(self.moved),
            set(self.finished), self.deal_last, self.refill_open, self.unsure, self.idle)
