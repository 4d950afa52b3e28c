"""What may be typed now at a live table: the players who may act, their verbs, whom
they may ask and for what, the sets, cards and counts that fit. The live prompt's
completion and its ``legal`` command read it.

What a player may hold comes from the cards the referee knows and, with a hidden deal,
from the knowledge model (each card's possible places). Where the rules show the
table only the last ask (``the table is shown: the last ask and its answer``), the
referee does not hint at what earlier asks showed: every card still in play counts as
one a player may hold.
"""

from __future__ import annotations

from referee.cards import Card, rank_plural
from referee.claims import waiting_for
from referee.draws import DRAWING, shown_on_draw
from referee.flow import pass_targets, targets
from referee.moves import EndLaying
from referee.questions import COLOURS, SUIT_NAMES
from referee.session import Session
from referee.spec import AskFor, Handover, Holding, LayDown, QuestionKind
from referee.state import Phase

KNOWLEDGE_SECONDS = 0.3  # how long one player's possible cards may take to settle


class Choices:
    """What may be typed in one state of a live game (made anew after every change)."""

    def __init__(self, session: Session, *, knowing: bool) -> None:
        self.session = session
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
            hidden = set(waiting_for(self.lk, state))
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
        if phase in DRAWING:
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
        if spec.lay_down is not LayDown.AT_ONCE and self.whole_sets(seat):
            verbs.append(self._lay_verb())
        if spec.plays:
            verbs.append("plays")
        return verbs

    def _lay_verb(self) -> str:
        return "books" if all(s.kind == "book" for s in self.spec.sets) else "lays down"

    def whom(self, seat: int) -> list[int]:
        """The players ``seat`` may ask."""
        return targets(self.lk, self.state, seat)

    def ask_items(self, seat: int) -> list[str]:
        """The ranks or cards ``seat`` may ask for, as far as what they may hold shows."""
        spec, lk = self.spec, self.lk
        held = self.may_hold(seat)
        playing = self.in_play()
        hold = spec.ask.must_hold
        if hold is Holding.SAME_RANK:
            ranks = {lk.rank[c] for c in held}
            pool = [c for c in playing if lk.rank[c] in ranks]
        elif hold is Holding.SAME_SET:
            sets = {lk.set_name[c] for c in held if c in lk.set_name}
            pool = [c for c in playing if lk.set_name.get(c) in sets]
        else:
            pool = playing
        if spec.ask.item is AskFor.RANK:
            return list(dict.fromkeys(lk.rank[c] for c in pool))
        items: list[str] = []
        for card in pool:
            if not spec.ask.may_hold_card and self.surely_holds(seat, card):
                continue  # the asker holds it: no ask for it
            if hold is Holding.SAME_RANK:
                family = lk.cards_of_rank[lk.rank[card]] - {card}
            elif hold is Holding.SAME_SET:
                family = lk.set_cards[lk.set_name[card]] - (
                    frozenset() if spec.ask.may_hold_card else {card})
            else:
                family = None
            if family is None or held & family:
                items.append(card)
        return items

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
        kinds = self.spec.questions
        words: list[str] = []
        if QuestionKind.RANK in kinds:
            words += [rank_plural(r) for r in self.spec.ranks]
        if QuestionKind.SUIT in kinds:
            words += [SUIT_NAMES[s] for s in self.spec.suits if s in SUIT_NAMES]
        if QuestionKind.COLOUR in kinds:
            words += list(COLOURS)
        return words

    def whole_sets(self, seat: int) -> list[str]:
        """The sets ``seat`` may lay down now: whole in their hand, as far as known."""
        state = self.state
        held = self.may_hold(seat)
        if self.spec.lay_down is LayDown.AT_ONCE:
            names = state.laying.get(seat, frozenset()) if state.phase is Phase.LAY else ()
            return [s.name for s in self.spec.sets if s.name in names and s.cards <= held]
        centre = set(state.centre) if self.spec.lay_down is LayDown.WITH_CENTRE else set()
        return [s.name for s in self.spec.sets if not state.decided(s.name)
                and s.cards <= held | centre and s.cards & held]

    def open_sets(self) -> list[str]:
        """The sets still in play, which a claim may name."""
        return [s.name for s in self.spec.sets if not self.state.decided(s.name)]

    def team_of(self, seat: int) -> list[int]:
        """``seat`` and their teammates."""
        state = self.state
        return [s for s in range(len(state.players)) if state.side(s) == state.side(seat)]

    def pass_to(self) -> list[int]:
        """Whom the player in turn, out of cards, may pass to."""
        return pass_targets(self.state) if self.state.phase is Phase.PASS else []

    def show_items(self, seat: int) -> list[str]:
        """The cards of the claimed set that ``seat`` may show."""
        state = self.state
        if state.phase is not Phase.SHOW:
            return []
        return [c for c in waiting_for(self.lk, state) if c in self.may_hold(seat)]

    def draw_items(self) -> list[str]:
        """The cards a draw may name: those it must show, if the stock may hold them."""
        shown = shown_on_draw(self.lk, self.state)
        return [c for c in self.may_be_in_stock() if c in shown]

    def play_items(self, seat: int) -> list[str]:
        """The cards ``seat`` may play."""
        return list(self.lk.in_deck_order(self.may_hold(seat)))
