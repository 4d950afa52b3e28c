"""The engine: one interface to every game a GameSpec describes.

The checker, self-play and the live prompt all drive the same verbs:
:meth:`Engine.current_player`, :meth:`Engine.legal_moves`,
:meth:`Engine.violation` (is-legal, with the reason), :meth:`Engine.apply` and
:meth:`Engine.outcome`. The engine walks the spec; it knows no game by name.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.captures import capture_choices, play_violation, random_play
from referee.cards import Card, Rank, rank_of
from referee.claims import claim_violation, judge, random_claim
from referee.errors import Kind, RefereeError
from referee.moves import (
    Answer,
    Ask,
    Claim,
    Draw,
    Give,
    LayDown,
    Move,
    Pass,
    Play,
    Question,
    Refuse,
    TurnUp,
)
from referee.questions import answer_violation, every_question, matching_cards, question_violation
from referee.spec import (
    AskFor,
    Condition,
    Continuation,
    EmptyHand,
    EndWhen,
    FirstSeat,
    GameSpec,
    Handover,
    Holding,
    PassTo,
    Target,
    TieRule,
    WhenStuck,
)
from referee.spec import (
    LayDown as LayDownRule,
)
from referee.state import GameState, Phase

CLAIM_CHANCE = 0.05  # how often self-play claims when it could ask instead
LAY_DOWN_CHANCE = 0.5  # how often self-play lays down a whole set it holds
QUESTION_CHANCE = 0.2  # how often self-play asks a yes-or-no question when it may


@dataclass(frozen=True, slots=True)
class Result:
    """Scores by side (a seat, or a team in team games), and the winning sides once
    the game is over."""

    over: bool
    scores: tuple[int, ...]
    winners: tuple[int, ...]


class Engine:
    """Plays games under one GameSpec."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self._set_cards = {s.name: s.cards for s in spec.sets}
        self._set_name = {card: s.name for card, s in spec.set_of_card.items()}
        self._rank = {card: rank_of(card) for card in spec.cards}
        self._cards_of_rank: dict[Rank, list[Card]] = {}
        for card in spec.cards:
            self._cards_of_rank.setdefault(self._rank[card], []).append(card)
        self._position = {card: i for i, card in enumerate(spec.cards)}
        self._points = {s.name: spec.points_by_kind.get(s.kind, spec.points_per_set)
                        for s in spec.sets}
        self.deck = frozenset(spec.cards)

    def sides(self, players: int) -> int:
        """How many sides score: the teams, or else the players."""
        return self.spec.teams or players

    # -- starting ---------------------------------------------------------------

    def shuffled_deal(
        self, players: int, dealer: int, seed: int
    ) -> tuple[list[list[Card]], list[Card]]:
        """Hands and stock (top first) from shuffling the deck with ``seed``."""
        deck = list(self.spec.cards)
        random.Random(seed).shuffle(deck)
        sizes = self.spec.hand_sizes(players, dealer)
        hands: list[list[Card]] = [[] for _ in range(players)]
        seat, position = (dealer + 1) % players, 0
        while any(len(hands[s]) < sizes[s] for s in range(players)):
            if len(hands[seat]) < sizes[seat]:
                hands[seat].append(deck[position])
                position += 1
            seat = (seat + 1) % players
        return hands, deck[position:]

    def split_rest(
        self, players: int, rest: Sequence[Card]
    ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """What the deal does with the cards left after the hands: the stock (top
        first) and the cards turned face up to the centre."""
        centre = self.spec.centre_size(players)
        return tuple(rest[centre:]), tuple(rest[:centre])

    def start(
        self, players: Sequence[str], dealer: int,
        hands: Sequence[Sequence[Card]], stock: Sequence[Card],
        teams: Sequence[int] | None = None, centre: Sequence[Card] = (),
    ) -> GameState:
        """The state after the deal: sets laid at once, the first player in turn.

        ``teams`` gives each seat's team; by default teams sit alternately.
        ``centre`` lists the cards dealt face up to the centre.
        """
        count = len(players)
        if teams is None:
            teams = self.spec.alternate_teams(count)
        state = GameState(
            players=tuple(players), dealer=dealer, hands=[set(h) for h in hands],
            unknown=[0] * count, stock=list(reversed(stock)),
            laid=[[] for _ in range(self.sides(count))], teams=tuple(teams),
            centre=list(centre), piles=[[] for _ in range(self.sides(count))],
        )
        for seat in range(count):
            self._lay_complete_sets(state, seat, state.hands[seat])
        first = {
            FirstSeat.LEFT_OF_DEALER: dealer + 1,
            FirstSeat.RIGHT_OF_DEALER: dealer - 1,
            FirstSeat.DEALER: dealer,
        }[self.spec.first_seat] % count
        if not self._ended(state):
            self._give_turn(state, first)
        return state

    # -- the interface ------------------------------------------------------------

    def current_player(self, state: GameState) -> int | None:
        """The seat that must move next, or None once the game is over."""
        if state.phase is Phase.OVER:
            return None
        if state.phase is Phase.ANSWER:
            return self._asked(state)
        return state.turn

    @staticmethod
    def _asked(state: GameState) -> int:
        """The seat that owes an answer."""
        if state.questioning is not None:
            return state.questioning.target
        assert state.asking is not None
        return state.asking.target

    def legal_moves(self, state: GameState) -> list[Move]:
        """Every move the rules allow now (answers and draws are forced)."""
        if state.phase is Phase.ASK:
            return [*self._legal_asks(state), *self._legal_questions(state),
                    *self._legal_lay_downs(state), *self._legal_claims(state),
                    *self._legal_plays(state)]
        if state.phase is Phase.PASS:
            return [Pass(state.turn, t) for t in self._pass_targets(state)]
        forced = self.forced_move(state)
        return [forced] if forced is not None else []

    def forced_move(self, state: GameState) -> Move | None:
        """The one move the cards dictate (answer or draw), when the phase has one."""
        if state.phase is Phase.ANSWER and state.questioning is not None:
            return Answer(state.questioning.target,
                          bool(matching_cards(state, state.questioning)))
        if state.phase is Phase.ANSWER:
            assert state.asking is not None
            cards = self._cards_to_give(state, state.asking)
            target = state.asking.target
            return Give(target, cards) if cards else Refuse(target)
        if state.phase in (Phase.DRAW, Phase.STUCK_DRAW) and state.stock:
            return Draw(state.turn, state.stock[-1])
        if state.phase is Phase.TURN_UP:
            wanted = self.spec.centre_refill - len(state.centre)
            return TurnUp(state.turn, tuple(reversed(state.stock[-wanted:])))
        if state.phase is Phase.PASS:
            targets = self._pass_targets(state)
            return Pass(state.turn, targets[0]) if len(targets) == 1 else None
        return None

    def is_legal(self, state: GameState, move: Move) -> bool:
        """Whether ``move`` is allowed now."""
        return self.violation(state, move) is None

    def violation(self, state: GameState, move: Move) -> RefereeError | None:
        """Why ``move`` is not allowed now, or None when it is."""
        name = state.players
        if state.phase is Phase.OVER:
            return RefereeError(Kind.OVER, "the game is already over")
        if isinstance(move, Pass):
            return self._pass_violation(state, move)
        if state.phase is Phase.PASS:
            return RefereeError(Kind.TURN, f"{name[state.turn]} holds no cards and must first "
                                "pass the turn")
        if isinstance(move, TurnUp):
            return self._turn_up_violation(state, move)
        if state.phase is Phase.TURN_UP:
            return RefereeError(Kind.TURN, "the centre is filled from the stock first")
        if isinstance(move, LayDown | Claim | Play):
            return self._own_play_violation(state, move)
        if isinstance(move, Ask | Question):
            if state.phase is Phase.ANSWER:
                return RefereeError(Kind.TURN, f"{name[self._asked(state)]} must answer "
                                    f"{name[state.turn]} first")
            if state.phase is not Phase.ASK:
                return RefereeError(Kind.TURN, f"{name[state.turn]} must draw before anyone asks")
            if move.player != state.turn:
                return RefereeError(Kind.TURN, f"it is {name[state.turn]}'s turn, "
                                    f"not {name[move.player]}'s")
            if isinstance(move, Question):
                return question_violation(self.spec, state, move,
                                          self.spec.ask.target_needs_cards)
            return self._ask_violation(state, move)
        if isinstance(move, Give | Refuse | Answer):
            if state.phase is not Phase.ANSWER:
                return RefereeError(
                    Kind.TURN, f"nobody is waiting for {name[move.player]}'s answer")
            if move.player != self._asked(state):
                return RefereeError(Kind.TURN, f"{name[state.turn]} asked "
                                    f"{name[self._asked(state)]}, not {name[move.player]}")
            if isinstance(move, Answer) != (state.questioning is not None):
                wanted = "yes or no" if state.questioning else "by giving or saying no"
                return RefereeError(Kind.TURN, f"{name[move.player]} answers {wanted}")
            if isinstance(move, Answer):
                return answer_violation(state, move)
            return self._answer_violation(state, move)
        if state.phase not in (Phase.DRAW, Phase.STUCK_DRAW):
            return RefereeError(Kind.ILLEGAL, f"{name[move.player]} has no reason to draw now")
        if move.player != state.turn:
            return RefereeError(Kind.TURN, f"{name[state.turn]} draws now, not {name[move.player]}")
        if not state.stock:
            return RefereeError(Kind.ILLEGAL, "the stock is empty")
        if move.card is not None and move.card != state.stock[-1]:
            return RefereeError(Kind.CONTRADICTION, f"the top card of the stock is "
                                f"{state.stock[-1]}, not {move.card}")
        return None

    def apply(self, state: GameState, move: Move) -> None:
        """Play a legal ``move``, changing ``state``."""
        state.just_laid = []
        if isinstance(move, Ask):
            state.asking, state.questioning = move, None
            state.completed = []
            state.drawn = None
            state.phase = Phase.ANSWER
        elif isinstance(move, Question):
            state.asking, state.questioning = None, move
            state.phase = Phase.ANSWER
        elif isinstance(move, Play):
            self._play(state, move)
        elif isinstance(move, TurnUp):
            del state.stock[len(state.stock) - len(move.cards):]
            state.centre.extend(move.cards)
            state.phase = Phase.ASK
        elif isinstance(move, Answer):
            question = state.questioning
            assert question is not None
            state.questioning = None
            state.phase = Phase.ASK
            if not self._ended(state):
                self._give_turn(state, question.target if self.spec.after_question
                                is PassTo.ASKED else question.player + 1)
        elif isinstance(move, Give):
            assert state.asking is not None
            state.hands[move.player].difference_update(move.cards)
            if self.spec.ask.handover is Handover.TO_CENTRE:
                state.centre.extend(move.cards)
            else:
                state.hands[state.asking.player].update(move.cards)
                self._lay_complete_sets(state, state.asking.player, move.cards)
            self._continue(state, self.spec.on_given.then)
        elif isinstance(move, Refuse):
            if self.spec.on_refused.draw and state.stock:
                state.phase = Phase.DRAW
            else:
                self._continue(state, self.spec.on_refused.then)
        elif isinstance(move, LayDown):
            cards = self._set_cards[move.set_name]
            state.hands[move.player].difference_update(cards)
            state.centre = [c for c in state.centre if c not in cards]
            self._win(state, state.side(move.player), move.set_name)
            self._after_own_play(state, move.player)
        elif isinstance(move, Claim):
            winner = judge(self.spec, state, move).winner
            cards = self._set_cards[move.set_name]
            for hand in state.hands:
                hand.difference_update(cards)
            if winner is None:
                state.void.append(move.set_name)
            else:
                self._win(state, winner, move.set_name)
            self._after_own_play(state, move.player)
        elif isinstance(move, Pass):
            self._give_turn(state, move.target)
        elif state.phase is Phase.DRAW:
            state.drawn = self._draw(state, move.player)
            self._continue(state, self.spec.on_refused.then)
        else:
            self._draw(state, move.player)
            if not self._ended(state):
                self._give_turn(state, move.player + 1)

    def outcome(self, state: GameState) -> Result:
        """Scores by side and, once over, the winners."""
        points = self.spec.card_points
        if points:
            scores = tuple(sum(points[self._rank[c]] for c in pile) for pile in state.piles)
        else:
            scores = tuple(sum(self._points[name] for name in sets) for sets in state.laid)
        if not state.over:
            return Result(False, scores, ())
        best = max(scores)
        tied = [side for side, score in enumerate(scores) if score == best]
        if self.spec.ties is TieRule.FIRST_SET and len(tied) > 1:
            takers = [side for side, _ in state.laid_order]
            tied = [min(tied, key=lambda side: takers.index(side) if side in takers
                        else len(takers))]
        if self.spec.ties is TieRule.SEAT_ORDER and len(tied) > 1:
            count = len(state.players)
            tied = [min(tied, key=lambda seat: (seat - state.dealer - 1) % count)]
        return Result(True, scores, tuple(tied))

    # -- asks -----------------------------------------------------------------------

    def _ask_violation(self, state: GameState, ask: Ask) -> RefereeError | None:
        spec, name = self.spec, state.players
        if not spec.has_asks:
            return RefereeError(Kind.ILLEGAL, f"in {spec.title} nobody asks; a turn plays a card")
        asker, target = name[ask.player], name[ask.target]
        if ask.target == ask.player:
            return RefereeError(Kind.ILLEGAL, f"{asker} cannot ask {asker}")
        if (spec.ask.target is Target.OPPONENT
                and state.teams[ask.target] == state.teams[ask.player]):
            return RefereeError(Kind.ILLEGAL, f"{target} is on {asker}'s team; "
                                "asks go to opponents only")
        if spec.ask.target_needs_cards and state.hand_size(ask.target) == 0:
            return RefereeError(
                Kind.ILLEGAL, f"{target} holds no cards, so {asker} cannot ask {target}")
        if spec.ask.item is AskFor.CARD and ask.card is None:
            return RefereeError(Kind.ILLEGAL, f"in {spec.title} a player asks for a card "
                                "with its suit, not a rank")
        if spec.ask.item is AskFor.RANK and ask.card is not None:
            return RefereeError(Kind.ILLEGAL, f"in {spec.title} a player asks for a rank, "
                                f"not a card: ask for {ask.rank}")
        wanted = ask.card if ask.card is not None else ask.rank
        hand = state.hands[ask.player]
        if ask.card is not None:
            if ask.card in hand and not spec.ask.may_hold_card:
                return RefereeError(Kind.ILLEGAL, f"{asker} holds {ask.card} already and so "
                                    f"cannot ask for it")
            if ask.card in state.centre:
                return RefereeError(Kind.ILLEGAL, f"{ask.card} lies face up in the centre "
                                    "already")
            owner = spec.set_of_card[ask.card]
            if state.decided(owner.name):
                return RefereeError(Kind.ILLEGAL, f"{ask.card} is in the set {owner.name}, "
                                    "which is out of play")
        elif not self._unlaid(state, self._cards_of_rank.get(ask.rank, ())):
            return RefereeError(Kind.ILLEGAL, f"every {ask.rank} is laid down already")
        if spec.ask.must_hold is Holding.SAME_RANK:
            if not any(self._rank[c] == ask.rank for c in hand if c != ask.card):
                return RefereeError(Kind.ILLEGAL, f"{asker} holds no {ask.rank} and so cannot "
                                    f"ask for {wanted}")
        elif (spec.ask.must_hold is Holding.SAME_SET and ask.card is not None
              and not self._holds_same_set(hand, ask.card)):
                return RefereeError(Kind.ILLEGAL, f"{asker} holds no card of the set "
                                    f"{spec.set_of_card[ask.card].name} and so cannot ask "
                                    f"for {wanted}")
        return None

    def _unlaid(self, state: GameState, cards: Iterable[Card]) -> list[Card]:
        out = {name for _, name in state.laid_order} | set(state.void)
        return [c for c in cards if self._set_name[c] not in out]

    def _legal_asks(self, state: GameState) -> list[Move]:
        items, targets = self._ask_options(state)
        return [Ask(state.turn, t, rank, card) for rank, card in items for t in targets]

    def random_move(self, state: GameState, rng: random.Random) -> Move | None:
        """A random legal move, found without listing them all: a whole set held is laid
        down half the time, a claim made now and then, and otherwise an ask drawn
        uniformly; answers and draws are the forced ones."""
        if state.phase is Phase.PASS:
            return Pass(state.turn, rng.choice(self._pass_targets(state)))
        if state.phase is not Phase.ASK:
            return self.forced_move(state)
        lay_downs = self._legal_lay_downs(state)
        if lay_downs and rng.random() < LAY_DOWN_CHANCE:
            return rng.choice(lay_downs)
        items, targets = self._ask_options(state)
        if self.spec.questions and targets and rng.random() < QUESTION_CHANCE:
            return rng.choice(every_question(self.spec, state.turn, rng.choice(targets)))
        can_ask = bool(items and targets)
        if self.spec.claims is not None and (not can_ask or rng.random() < CLAIM_CHANCE):
            return random_claim(self.spec, state, rng)
        if not can_ask and self.spec.plays and state.hands[state.turn]:
            return random_play(self.spec.card_values, state, rng)
        if not can_ask:
            return rng.choice(lay_downs) if lay_downs else None
        rank, card = rng.choice(items)
        return Ask(state.turn, rng.choice(targets), rank, card)

    def _ask_options(
        self, state: GameState
    ) -> tuple[list[tuple[Rank, Card | None]], list[int]]:
        """What the player in turn may ask for, and whom: every pair is a legal ask."""
        spec, seat = self.spec, state.turn
        if not spec.has_asks:
            return [], []
        hand = state.hands[seat]
        if spec.ask.must_hold is Holding.SAME_RANK:
            pool = [c for r in {self._rank[c] for c in hand} for c in self._cards_of_rank[r]]
        elif spec.ask.must_hold is Holding.SAME_SET:
            pool = [c for name in {self._set_name[c] for c in hand}
                    for c in self._set_cards[name]]
        else:
            pool = list(spec.cards)
        pool = self._unlaid(state, pool)
        targets = self._targets(state, seat)
        if spec.ask.item is AskFor.RANK:
            return [(rank, None) for rank in sorted({self._rank[c] for c in pool})], targets
        items: list[tuple[Rank, Card | None]] = []
        for card in sorted(pool, key=self._position.__getitem__):
            if (card in hand and not spec.ask.may_hold_card) or card in state.centre:
                continue
            if (card in hand and spec.ask.must_hold is Holding.SAME_RANK
                    and not any(self._rank[c] == self._rank[card] for c in hand if c != card)):
                continue
            items.append((self._rank[card], card))
        return items, targets

    def _holds_same_set(self, hand: set[Card], card: Card) -> bool:
        """Whether ``hand`` holds a card of ``card``'s set (``card`` itself counts)."""
        return any(self._set_name[c] == self._set_name[card] for c in hand)

    def _targets(self, state: GameState, seat: int) -> list[int]:
        needs_cards = self.spec.ask.target_needs_cards
        opponents = self.spec.ask.target is Target.OPPONENT
        return [t for t in range(len(state.players))
                if t != seat and (not needs_cards or state.hand_size(t) > 0)
                and not (opponents and state.teams[t] == state.teams[seat])]

    def _can_play(self, state: GameState, seat: int) -> bool:
        """Whether ``seat`` has a move in turn: an ask, a claim, a lay-down or a play."""
        if state.hand_size(seat) == 0:
            return False
        # a question needs a target, as an ask does
        return (self.spec.plays or self.spec.claims is not None
                or bool(self._targets(state, seat)) or bool(self._whole_sets(state, seat)))

    # -- lay-downs, claims and passes ---------------------------------------------

    def _whole_sets(self, state: GameState, seat: int) -> list[str]:
        """The sets ``seat`` may lay down by choice now: whole in their hand."""
        rule = self.spec.lay_down
        hand = state.hands[seat]
        if rule is LayDownRule.WITH_CENTRE:
            reach = hand | set(state.centre)
            return [s.name for s in self.spec.sets if s.cards <= reach and s.cards & hand]
        if rule is LayDownRule.IN_TURN:
            return [s.name for s in self.spec.sets if s.cards <= hand]
        return []

    def _legal_plays(self, state: GameState) -> list[Move]:
        if not self.spec.plays:
            return []
        seat, values = state.turn, self.spec.card_values
        return [Play(seat, card, groups) for card in sorted(state.hands[seat])
                for groups in capture_choices(values, state.centre, card)]

    def _play(self, state: GameState, play: Play) -> None:
        state.hands[play.player].discard(play.card)
        if play.groups:
            taken = {c for group in play.groups for c in group}
            state.centre = [c for c in state.centre if c not in taken]
            state.piles[state.side(play.player)] += [play.card, *sorted(taken)]
        else:
            state.centre.append(play.card)
        if self._ended(state):
            return
        if self.spec.draw_after_play and state.stock:
            state.turn, state.phase = play.player, Phase.STUCK_DRAW
        else:
            self._give_turn(state, play.player + 1)

    def _turn_up_violation(self, state: GameState, move: TurnUp) -> RefereeError | None:
        if state.phase is not Phase.TURN_UP:
            if self.spec.centre_refill and len(state.centre) >= self.spec.centre_refill:
                return RefereeError(Kind.ILLEGAL, f"the centre holds {len(state.centre)} "
                                    "cards, so nothing is turned up")
            return RefereeError(Kind.ILLEGAL, "no cards are turned up now")
        due = self.forced_move(state)
        assert isinstance(due, TurnUp)
        if move.cards and move.cards != due.cards:
            return RefereeError(Kind.CONTRADICTION, f"the stock turns up {' '.join(due.cards)}, "
                                f"not {' '.join(move.cards)}")
        return None

    def _legal_questions(self, state: GameState) -> list[Move]:
        if not self.spec.questions:
            return []
        return [q for target in self._targets(state, state.turn)
                for q in every_question(self.spec, state.turn, target)]

    def _legal_lay_downs(self, state: GameState) -> list[Move]:
        return [LayDown(state.turn, name) for name in self._whole_sets(state, state.turn)]

    def _legal_claims(self, state: GameState) -> list[Move]:
        """Every claim: each open set, with each card placed with each teammate."""
        if self.spec.claims is None:
            return []
        seat = state.turn
        team = [s for s in range(len(state.players)) if state.side(s) == state.side(seat)]
        claims: list[Move] = []
        for chosen in self.spec.sets:
            if state.decided(chosen.name):
                continue
            cards = sorted(chosen.cards, key=self._position.__getitem__)
            for places in itertools.product(team, repeat=len(cards)):
                holders = tuple((mate, tuple(c for c, p in zip(cards, places, strict=True)
                                             if p == mate)) for mate in team if mate in places)
                claims.append(Claim(seat, chosen.name, holders))
        return claims

    def _own_play_violation(
        self, state: GameState, move: LayDown | Claim | Play
    ) -> RefereeError | None:
        name = state.players
        who = name[move.player]
        if state.phase is not Phase.ASK or move.player != state.turn:
            waiting = name[self.current_player(state) or 0]
            return RefereeError(Kind.TURN, f"it is {waiting}'s move, not {who}'s")
        if isinstance(move, Claim):
            return claim_violation(self.spec, state, move)
        if isinstance(move, Play):
            if not self.spec.plays:
                return RefereeError(Kind.ILLEGAL, f"in {self.spec.title} nobody plays cards "
                                    "to the centre")
            return play_violation(self.spec.card_values, state, move)
        rule = self.spec.lay_down
        if rule is LayDownRule.AT_ONCE:
            return RefereeError(Kind.ILLEGAL, f"in {self.spec.title} sets are laid down at once, "
                                "not by choice")
        if state.decided(move.set_name):
            return RefereeError(Kind.ILLEGAL, f"{move.set_name} is already out of play")
        members = self._set_cards[move.set_name]
        hand = state.hands[move.player]
        reach = hand | set(state.centre) if rule is LayDownRule.WITH_CENTRE else hand
        absent: list[Card] = sorted(members - reach, key=self._position.__getitem__)
        missing = " ".join(absent)
        if not members & hand:
            return RefereeError(Kind.ILLEGAL, f"{who} holds no card of {move.set_name}; a set "
                                "is taken with at least one card from the hand")
        if missing and rule is LayDownRule.WITH_CENTRE:
            return RefereeError(Kind.CONTRADICTION, f"neither {who}'s hand nor the centre "
                                f"holds {missing} of {move.set_name}")
        if missing:
            return RefereeError(Kind.CONTRADICTION, f"{who} does not hold all of "
                                f"{move.set_name}: {missing} missing")
        return None

    def _pass_targets(self, state: GameState) -> list[int]:
        """Whom the player in turn, whose hand is empty, may pass the turn to."""
        seat, count = state.turn, len(state.players)
        holding = [s for s in range(count) if s != seat and state.hand_size(s) > 0]
        mates = [s for s in holding if state.side(s) == state.side(seat)]
        return mates or holding

    def _pass_violation(self, state: GameState, move: Pass) -> RefereeError | None:
        name = state.players
        who, target = name[move.player], name[move.target]
        if move.player != state.turn:
            return RefereeError(Kind.TURN, f"it is {name[state.turn]}'s turn, not {who}'s")
        if state.phase is not Phase.PASS:
            return RefereeError(Kind.ILLEGAL, f"{who} still has a move; only a player whose "
                                "hand has emptied passes the turn")
        allowed = self._pass_targets(state)
        if move.target in allowed:
            return None
        if move.target == move.player or state.hand_size(move.target) == 0:
            return RefereeError(Kind.ILLEGAL, f"{target} holds no cards, so {who} cannot "
                                f"pass the turn to {target}")
        choices = ", ".join(name[s] for s in allowed)
        return RefereeError(Kind.ILLEGAL, f"{target} is not on {who}'s team; {who} passes "
                            f"to a teammate who holds cards ({choices})")

    def _win(self, state: GameState, side: int, set_name: str) -> None:
        state.laid[side].append(set_name)
        state.laid_order.append((side, set_name))

    def _after_own_play(self, state: GameState, seat: int) -> None:
        """After a lay-down or claim the player goes on, unless the game is over or their
        hand is empty."""
        if self._ended(state):
            return
        if state.hand_size(seat) > 0:
            state.turn, state.phase = seat, Phase.ASK
        else:
            self._hand_emptied(state, seat)

    def _hand_emptied(self, state: GameState, seat: int) -> None:
        """The player in turn has no cards left: they pass the turn as the rules say."""
        if self.spec.empty_hand is EmptyHand.CHOSEN:
            state.turn, state.phase = seat, Phase.PASS
        else:
            self._give_turn(state, seat + 1)

    # -- answers ----------------------------------------------------------------

    def _cards_to_give(self, state: GameState, ask: Ask) -> tuple[Card, ...]:
        hand = state.hands[ask.target]
        if self.spec.ask.handover is not Handover.ALL_OF_RANK:
            return (ask.card,) if ask.card in hand else ()
        rank = self._rank
        return tuple(sorted((c for c in hand if rank[c] == ask.rank),
                            key=self._position.__getitem__))

    def _answer_violation(self, state: GameState, move: Give | Refuse) -> RefereeError | None:
        assert state.asking is not None
        due = self._cards_to_give(state, state.asking)
        who = state.players[move.player]
        asked = state.asking.card or state.asking.rank
        if isinstance(move, Refuse):
            if due:
                return RefereeError(Kind.CONTRADICTION, f"{who} holds {' '.join(due)}, so {who} "
                                    f"cannot say no to an ask for {asked}")
            return None
        if not due:
            return RefereeError(Kind.CONTRADICTION, f"{who} holds no {asked}, so {who} has "
                                f"nothing to give")
        if set(move.cards) != set(due):
            return RefereeError(Kind.CONTRADICTION, f"{who} must give {' '.join(due)}, "
                                f"not {' '.join(move.cards) or 'nothing'}")
        return None

    # -- turn flow ------------------------------------------------------------------

    def _draw(self, state: GameState, seat: int) -> Card:
        card = state.stock.pop()
        state.hands[seat].add(card)
        self._lay_complete_sets(state, seat, (card,))
        return card

    def _lay_complete_sets(self, state: GameState, seat: int, cards: Iterable[Card]) -> None:
        if self.spec.lay_down is not LayDownRule.AT_ONCE or not self.spec.sets:
            return
        hand = state.hands[seat]
        touched = {self._set_name[c] for c in cards}
        for name in (s.name for s in self.spec.sets if s.name in touched):
            members = self._set_cards[name]
            if members <= hand:
                hand.difference_update(members)
                self._win(state, state.side(seat), name)
                state.completed.append(name)
                state.just_laid.append((seat, name))

    def _continue(self, state: GameState, then: Continuation) -> None:
        ask = state.asking
        assert ask is not None
        state.phase = Phase.ASK
        if self._ended(state):
            return
        if then.ask_again and (then.condition is None or self._holds(state, then.condition)):
            asker = ask.player
            if state.hand_size(asker) == 0:
                self._hand_emptied(state, asker)
            elif self._can_play(state, asker):
                state.turn = asker
            else:
                self._give_turn(state, asker)
            return
        self._give_turn(state, ask.target if then.pass_to is PassTo.ASKED else ask.player + 1)

    def _holds(self, state: GameState, condition: Condition) -> bool:
        ask = state.asking
        assert ask is not None
        if condition is Condition.DRAWN_IS_CARD:
            return state.drawn is not None and state.drawn == ask.card
        if condition is Condition.DRAWN_IS_RANK:
            return state.drawn is not None and self._rank[state.drawn] == ask.rank
        if ask.card is not None:
            return self._set_name[ask.card] in state.completed
        return any(self._rank[c] == ask.rank for name in state.completed
                   for c in self._set_cards[name])

    def _give_turn(self, state: GameState, start: int) -> None:
        """Give the turn to the first seat from ``start`` clockwise who can play."""
        count = len(state.players)
        may_draw = self.spec.when_stuck is WhenStuck.DRAW_AND_PASS and bool(state.stock)
        for step in range(count):
            seat = (start + step) % count
            if self._can_play(state, seat):
                state.turn, state.phase = seat, Phase.ASK
                if self.spec.centre_refill > len(state.centre) and state.stock:
                    state.phase = Phase.TURN_UP
                return
            if may_draw:
                state.turn, state.phase = seat, Phase.STUCK_DRAW
                return
        state.phase = Phase.OVER  # nobody can move: nothing is left to play

    def _ended(self, state: GameState) -> bool:
        """End the game if an end condition holds; say whether it did."""
        ends = self.spec.end_when
        over = (
            (len(state.laid_order) + len(state.void) == len(self.spec.sets) > 0
             and bool({EndWhen.ALL_SETS_LAID, EndWhen.ALL_SETS_DECIDED} & ends))
            or (EndWhen.ALL_EMPTY in ends and not state.stock
                and all(state.hand_size(s) == 0 for s in range(len(state.players))))
            or (EndWhen.STOCK_EMPTY in ends and not state.stock)
            or (EndWhen.PLAYER_EMPTY in ends
                and any(state.hand_size(s) == 0 for s in range(len(state.players))))
        )
        if over:
            state.phase = Phase.OVER
        return over

