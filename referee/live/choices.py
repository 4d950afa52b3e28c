"""What may be typed now at a live table: the players who may act, their verbs, whom
they may ask and for what, the sets, cards and counts that fit. The live prompt's
completion and its ``legal`` command read it.

What a player may hold comes from the cards the referee knows and, with a hidden deal,
from the knowledge model (each card's possible places); what the rules allow them is
the engine's to say (its verbs), never decided here. Where the rules show the
table only the last ask (``the table is shown: the last ask and its answer``), the
referee does not hint at what earlier asks showed: every card still in play counts as
one a player may hold.
"""

from __future__ import annotations

from referee.engine.moves import EndLaying
from referee.engine.state import Phase
from referee.engine.wording import SUIT_NAMES
from referee.language.cards import Card, Rank, rank_plural
from referee.language.spec import AskFor, Handover
from referee.transcript.session import Session

KNOWLEDGE_SECONDS = 0.3  # how long one player's possible cards may take to settle


class Choices:
    """What may be typed in one state of a live game (made anew after every change)."""

    def __init__(self, session: Session, *, knowing: bool) -> None:
        self.session = session
        self.engine = session.engine
        self.state = session.state
        self.lk = session.engine.lookups
        self.spec = session.engine.spec
        self.knowing = knowing  # whether the referee may use what earlier events showed
        self._held: dict[int, frozenset[Card]] = {}

    # -- cards ------------------------------------------------------------------------

    def in_play(self) -> list[Card]:
        """The cards not yet laid, won, captured or face up, in deck order."""
        state = self.state
        gone = set(state.centre) | {c for pile in state.piles for c in pile}
        return [c for c in self.spec.cards if c not in gone
                and not (c in self.lk.set_name and state.decided(self.lk.set_name[c]))]

    def may_hold(self, seat: int) -> frozenset[Card]:
        """The cards ``seat`` may hold now, as far as the table may be told."""
        if seat not in self._held:
            self._held[seat] = self._may_hold(seat)
        return self._held[seat]

    def _may_hold(self, seat: int) -> frozenset[Card]:
        state = self.state
        if state.hand_size(seat) == 0:
            return frozenset()
        if not self.knowing:
            return frozenset(self.in_play())
        known = frozenset(state.hands[seat])
        if state.unknown[seat] == 0:
            return known
        model = self.session.knowledge
        if model is None or not model.consistent:
            return known | frozenset(state.unplaced)
        return known | frozenset(model.possible_at(seat, KNOWLEDGE_SECONDS))

    def surely_holds(self, seat: int, card: Card) -> bool:
        """Whether the table knows that ``seat`` holds ``card``."""
        return self.knowing and card in self.state.hands[seat]

    def may_be_in_stock(self) -> list[Card]:
        """The cards that may be in the stock, in deck order."""
        state = self.state
        known = {c for c in state.stock if c is not None}
        unnamed = any(c is None for c in state.stock)
        return [c for c in self.spec.cards if c in known or (unnamed and c in state.unplaced)]

    # -- who and what -------------------------------------------------------------

    def actors(self) -> list[int]:
        """The seats that may type an event now."""
        state = self.state
        if state.over:
            return []
        if state.phase is Phase.ANSWER:
            asked = self.session.engine.current_player(state)
            return [asked] if asked is not None else []
        if state.phase is Phase.LAY:
            return sorted({*state.laying, *self._after_laying()})
        if state.phase is Phase.SHOW:
            assert state.showing is not None
            hidden = set(self.engine.unshown(state))
            return [s for s in range(len(state.players)) if self.may_hold(s) & hidden]
        return [state.turn]

    def _after_laying(self) -> list[int]:
        """Who moves once nobody lays down more sets (in the lay phase)."""
        after = self.state.copy()
        self.session.engine.apply(after, EndLaying(self.state.turn))
        return [] if after.over else [after.turn]

    def verbs(self, seat: int) -> list[str]:
        """What ``seat`` may do now, as the words that follow their name."""
        state, spec = self.state, self.spec
        phase = state.phase
        if state.over:
            return []
        if phase is Phase.ANSWER:
            if self.session.engine.current_player(state) != seat:
                return []
            if state.questioning is not None:
                return ["says"]
            return ["lays out" if spec.ask.handover is Handover.TO_CENTRE else "gives", "says"]
        if self.engine.awaits_draw(state):
            return ["draws"] if seat == state.turn else []
        if phase is Phase.PASS:
            return ["passes to"] if seat == state.turn else []
        if phase is Phase.SHOW:
            return ["shows"] if seat in self.actors() else []
        if phase is Phase.LAY:
            verbs = [self._lay_verb()] if seat in state.laying else []
            if seat in self._after_laying():
                verbs += [v for v in self._turn_verbs(seat) if v not in verbs]
            return verbs
        if phase is Phase.ASK and seat == state.turn:
            return self._turn_verbs(seat)
        return []

    def _turn_verbs(self, seat: int) -> list[str]:
        spec = self.spec
        verbs = []
        if spec.has_asks and self.whom(seat):
            verbs.append("asks")
        if spec.claims is not None and self.open_sets():
            verbs.append("claims")
        if self.whole_sets(seat):  # by choice; at once, only those the lay phase waits for
            verbs.append(self._lay_verb())
        if spec.plays:
            verbs.append("plays")
        return verbs

    def _lay_verb(self) -> str:
        return "books" if all(s.kind == "book" for s in self.spec.sets) else "lays down"

    def whom(self, seat: int) -> list[int]:
        """The players ``seat`` may ask."""
        return self.engine.targets(self.state, seat)

    def ask_items(self, seat: int) -> list[str]:
        """The ranks or cards ``seat`` may ask for, as far as what they may hold shows."""
        sure = frozenset(self.state.hands[seat]) if self.knowing else frozenset()
        askable = self.engine.askable(self.state, self.may_hold(seat), sure)
        rank = self.lk.rank
        if self.spec.ask.item is AskFor.RANK:
            ranks = {r for r, _ in askable}
            return list(dict.fromkeys(rank[c] for c in self.in_play() if rank[c] in ranks))
        cards = {c for _, c in askable}
        return [c for c in self.in_play() if c in cards]

    def answer_items(self) -> list[str]:
        """What the asked player may give: the cards asked for that they may hold, and
        their counts for a rank."""
        state = self.state
        ask = state.asking
        if state.phase is not Phase.ANSWER or ask is None:
            return []
        if ask.card is not None:
            return [ask.card] if ask.card in self.may_hold(ask.target) else []
        cards = [c for c in self.lk.in_deck_order(self.lk.cards_of_rank[ask.rank])
                 if c in self.may_hold(ask.target)]
        return [*cards, *(str(n) for n in range(1, len(cards) + 1))]

    def answer_words(self) -> list[str]:
        """``yes`` or ``no``, as far as the asked hand may hold what is asked for."""
        state = self.state
        if state.questioning is not None:
            return ["yes", "no"]
        ask = state.asking
        if ask is None:
            return []
        wanted = ({ask.card} if ask.card is not None
                  else set(self.lk.cards_of_rank[ask.rank]))
        surely = any(self.surely_holds(ask.target, c) for c in wanted)
        words = ["yes"] if wanted & self.may_hold(ask.target) else []
        return words if surely else [*words, "no"]

    def question_items(self) -> list[str]:
        """What a question may name: ranks, suits, colours, as the rules allow."""
        words: list[str] = []
        for kind, value in self.engine.question_topics():
            if kind == "rank":
                words.append(rank_plural(Rank(value)))
            elif kind != "suit":
                words.append(value)
            elif value in SUIT_NAMES:
                words.append(SUIT_NAMES[value])
        return words

    def whole_sets(self, seat: int) -> list[str]:
        """The sets ``seat`` may lay down now: whole in their hand, as far as known."""
        return self.engine.whole_sets(self.state, seat, self.may_hold(seat))

    def open_sets(self) -> list[str]:
        """The sets still in play, which a claim may name."""
        return self.engine.open_sets(self.state)

    def team_of(self, seat: int) -> list[int]:
        """``seat`` and their teammates."""
        return self.engine.team(self.state, seat)

    def pass_to(self) -> list[int]:
        """Whom the player in turn, out of cards, may pass to."""
        return self.engine.pass_targets(self.state) if self.state.phase is Phase.PASS else []

    def show_items(self, seat: int) -> list[str]:
        """The cards of the claimed set that ``seat`` may show."""
        state = self.state
        if state.phase is not Phase.SHOW:
            return []
        return [c for c in self.engine.unshown(state) if c in self.may_hold(seat)]

    def draw_items(self) -> list[str]:
        """The cards a draw may name: those it must show, if the stock may hold them."""
        shown = self.engine.shown_on_draw(self.state)
        return [c for c in self.may_be_in_stock() if c in shown]

    def play_items(self, seat: int) -> list[str]:
        """The cards ``seat`` may play."""
        return list(self.lk.in_deck_order(self.may_hold(seat)))
