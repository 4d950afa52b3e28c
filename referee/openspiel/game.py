"""Every rule file as an OpenSpiel game: ``referee(rules=NAME_OR_PATH,players=N)``.

The deal is chance: one chance node per card of the deck, in the order the cards are
dealt (each hand one card at a time from the dealer's left, then the stock from the
top, then the centre), so draws and turn-ups take the cards chance put there. Every
move then goes through the engine with that open deal, as self-play does; the moves
the cards force (answers, draws, books laid at once) are played at once, and a player
decides only where the rules give a choice, one token at a time (referee/openspiel/
actions.py). When several players may act, the first of them clockwise from the one
the engine names acts first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from referee.api import load_rules
from referee.authoring.simulate import DEFAULT_MAX_MOVES, PLAYER_NAMES
from referee.engine.core import Engine
from referee.engine.moves import Claim, Move
from referee.engine.state import PHASE_ASK, GameState
from referee.language.cards import Card
from referee.language.rulefiles import rule_reference
from referee.language.spec import HANDOVER_TO_CENTRE, GameSpec
from referee.openspiel.actions import MAX_SEATS, Token, Vocabulary
from referee.openspiel.seen import seen_by_each
from referee.transcript.writer import format_move, write_deal, write_table

SHORT_NAME = "referee"
MAX_DECISIONS = DEFAULT_MAX_MOVES  # a game still going after this many moves ends as it stands
OPTION_NAMES = ("must-lay-down", "wrong-claim-to-opponents", "high-double", "bluff-asks",
                "history")  # the options of the bundled rule files, as game parameters

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="A rule file of the referee",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_SEATS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "go-fish", "players": 2, "options": "",
                             **dict.fromkeys(OPTION_NAMES, "")},
)


def parse_options(params: dict[str, Any]) -> dict[str, str]:
    """The rule file's options the parameters set: each named option given a value,
    and ``options=NAME:VALUE/NAME:VALUE`` for any other."""
    chosen = {name: str(params[name]) for name in OPTION_NAMES if params.get(name)}
    for item in str(params.get("options", "")).split("/"):
        if item.strip():
            name, _, value = item.partition(":")
            chosen[name.strip()] = value.strip()
    return chosen


class RefereeGame(pyspiel.Game):  # type: ignore[misc]
    """One rule file at one table size, as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = self._set_up(params)
        spec = self.spec
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.vocabulary),
            max_chance_outcomes=len(spec.cards),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=len(spec.cards) + MAX_DECISIONS * 64,
        )
        super().__init__(GAME_TYPE, info, params)

    def __getattr__(self, name: str) -> Any:
        # OpenSpiel may hand a state another Python wrapper of this same game, one whose
        # __init__ never ran (a state it deserializes): it sets itself up from the
        # game's parameters the first time one of its fields is asked for.
        if name.startswith("__") or "spec" in self.__dict__:
            raise AttributeError(name)
        self._set_up(dict(self.get_parameters()))
        return object.__getattribute__(self, name)

    def _set_up(self, params: dict[str, Any]) -> int:
        """The rule file and table ``params`` name, as this game's fixed data; the
        number of players."""
        rules_name = str(params.get("rules", "go-fish"))
        players = int(params.get("players", 2))
        self.rules = load_rules(rules_name, parse_options(params))
        spec = self.rules.spec
        refused = spec.refuses_players(players)
        if refused is not None:
            raise ValueError(refused)
        self.spec = spec
        self.engine = Engine(spec)
        self.names = PLAYER_NAMES[:players]
        self.dealer = players - 1
        self.vocabulary = Vocabulary(spec, self.names)
        self.sides = self.engine.sides(players)
        self.card_index = {card: index for index, card in enumerate(spec.cards)}
        from referee.openspiel.resample import ResampleCounts

        self.resample_counts = ResampleCounts()  # how resampling went (bench/)
        return players

    @classmethod
    def for_spec(cls, spec: GameSpec, players: int) -> RefereeGame:
        """The game of a compiled rule file (its options as set when compiled)."""
        params: dict[str, Any] = {"rules": rule_reference(spec), "players": players}
        options = "/".join(f"{k}:{v}" for k, v in spec.options_set.items())
        if options:
            params["options"] = options
        game: RefereeGame = pyspiel.load_game(SHORT_NAME, params)
        return game

    def new_initial_state(self) -> RefereeState:
        """The state before the deal."""
        return RefereeState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The observer of one seat: the information state (perfect recall) or the
        observation, as a string and as a tensor."""
        from referee.openspiel.observe import SeatObserver

        perfect = iig_obs_type is None or iig_obs_type.perfect_recall
        return SeatObserver(self, perfect_recall=perfect)


class RefereeState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the cards dealt so far, then the engine's state."""

    def __init__(self, game: RefereeGame) -> None:
        super().__init__(game)
        self.p = Progress(game)

    @property
    def referee_game(self) -> RefereeGame:
        """The game this state belongs to."""
        return self.p.game

    # -- the engine underneath ---------------------------------------------------

    def start_hand(self) -> None:
        """Deal the hands, stock and centre from ``deck`` and play the forced moves."""
        game = self.referee_game
        engine = game.engine
        order = engine._deal_order(len(game.names), game.dealer)
        hands: list[list[Card]] = [[] for _ in game.names]
        for seat, card in zip(order, self.p.deck, strict=False):
            hands[seat].append(card)
        stock, centre = engine.split_rest(len(game.names), self.p.deck[len(order):])
        self.p.state = engine.start(game.names, game.dealer, hands, stock, centre=centre)
        self.p.dealt = (hands, stock, centre)
        self.advance()

    def advance(self) -> None:
        """Play every move the cards or the rules leave no choice in, and every token
        all legal moves agree on, until a player has a real choice or the game ends."""
        p = self.p
        state = p.state
        assert state is not None
        while True:
            if state.over or p.stopped:
                p.options = None
                return
            if len(p.moves) >= MAX_DECISIONS:
                p.stopped, p.options = True, None
                return
            options = self.options()
            if not options:
                p.stopped, p.options = True, None
                return
            depth = len(p.prefix)
            token = options[0][depth]
            if any(option[depth] != token for option in options):
                return
            self._take(token)

    def _take(self, token: Token) -> None:
        """Add ``token`` to the move being chosen (the options narrowed to those it
        begins), and play the move if that completes it."""
        p = self.p
        depth = len(p.prefix)
        p.prefix.append(token)
        if p.options is not None and p.prefix[0] != self.referee_game.vocabulary.claim_verb:
            p.options = [o for o in p.options if o[depth] == token]
        else:
            p.options = None  # a claim's next step is found afresh
        self._finish_move_if_whole()

    def options(self) -> list[tuple[Token, ...]]:
        """The token sequences of the acting player's legal moves that begin with the
        tokens chosen so far (a claim's only as far as its next step)."""
        if self.p.options is not None:
            return self.p.options
        game, state = self.referee_game, self.p.state
        assert state is not None
        vocab, engine = game.vocabulary, game.engine
        prefix = tuple(self.p.prefix)
        claims = vocab.verb["claims"]
        if prefix and prefix[0] == claims:
            found = self._claim_options(prefix)
        else:
            found = list(self._candidates())
            if (game.spec.claims is not None and state.phase is PHASE_ASK
                    and self.p.actor == state.turn and engine.open_sets(state)):
                found.append((claims,))
            if prefix:
                found = [f for f in found if f[:len(prefix)] == prefix]
        self.p.options = found
        return found

    def _candidates(self) -> dict[tuple[Token, ...], Move]:
        """The acting player's legal moves (claims aside) by their tokens, found once
        for each move played."""
        if self.p.candidates is None:
            game, state = self.referee_game, self.p.state
            assert state is not None
            moves = game.engine.legal_moves(state, with_claims=False)
            actor = self.p.actor = self._acting(moves)
            tokens = game.vocabulary.tokens
            self.p.candidates = {tokens(m): m for m in moves if m.player == actor}
        return self.p.candidates

    def _claim_options(self, prefix: tuple[Token, ...]) -> list[tuple[Token, ...]]:
        game, state = self.referee_game, self.p.state
        assert state is not None
        vocab, engine = game.vocabulary, game.engine
        if len(prefix) == 1:
            return [(*prefix, vocab.set_token(name)) for name in engine.open_sets(state)]
        team = engine.team(state, state.turn)
        return [(*prefix, vocab.seat(mate)) for mate in team]

    def _acting(self, moves: Sequence[Move]) -> int | None:
        """Who acts now: the engine's player if they may move, else the first clockwise."""
        if not moves:
            return None
        state = self.p.state
        assert state is not None
        first = self.referee_game.engine.current_player(state)
        movers = {m.player for m in moves}
        players = len(state.players)
        start = first if first is not None else 0
        for step in range(players):
            seat = (start + step) % players
            if seat in movers:
                return seat
        return None

    def _finish_move_if_whole(self) -> None:
        """Play the move whose tokens are all chosen, if they are."""
        game, state = self.referee_game, self.p.state
        assert state is not None
        vocab = game.vocabulary
        prefix = tuple(self.p.prefix)
        if prefix[0] == vocab.verb["claims"]:
            if len(prefix) < 2:
                return
            name = vocab.sets[prefix[1] - vocab.set_base]
            cards = vocab.claim_cards(name)
            if len(prefix) < 2 + len(cards):
                return
            holders: dict[int, list[Card]] = {}
            for card, token in zip(cards, prefix[2:], strict=True):
                holders.setdefault(token - vocab.seat_base, []).append(card)
            move: Move = Claim(state.turn, name, tuple(
                (seat, tuple(held)) for seat, held in sorted(holders.items())))
        else:
            found = self._candidates().get(prefix)
            if found is None:
                return
            move = found
        p = self.p
        p.prefix = []
        p.options = p.candidates = None
        p.moves.append(move)
        p.seen.append(seen_by_each(game.engine, game.names, state, move))
        game.engine.apply(state, move)

    # -- OpenSpiel's verbs -----------------------------------------------------------

    def current_player(self) -> int:
        """The player to choose, chance during the deal, or terminal."""
        if self.p.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        self.options()
        assert self.p.actor is not None
        return self.p.actor

    def is_terminal(self) -> bool:
        """Whether the game is over (or can go no further)."""
        return self.p.state is not None and (self.p.state.over or self.p.stopped)

    def _legal_actions(self, player: int) -> list[int]:
        assert player >= 0
        return sorted({option[len(self.p.prefix)] for option in self.options()})

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet dealt, each equally likely next."""
        dealt = set(self.p.deck)
        cards = self.referee_game.spec.cards
        left = [index for index, card in enumerate(cards) if card not in dealt]
        return [(index, 1.0 / len(left)) for index in left]

    def _apply_action(self, action: int) -> None:
        p = self.p
        p.witness_cache, p.infostates = {}, {}
        if p.state is None:
            cards = p.game.spec.cards
            p.deck.append(cards[action])
            if len(p.deck) == len(cards):
                self.start_hand()
            return
        p.decisions.append(action)
        self._take(action)
        self.advance()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return str(self.referee_game.spec.cards[action])
        return self.referee_game.vocabulary.word(action)

    def returns(self) -> list[float]:
        """Each player's share of the win (their side's): 1 divided among the winning
        sides, 0 for the rest; all 0 until the game is over."""
        if not self.is_terminal() or self.p.state is None:
            return [0.0] * len(self.referee_game.names)
        return shares(self.referee_game, self.p.state)

    def rewards(self) -> list[float]:
        """Rewards come at the end only."""
        return self.returns() if self.is_terminal() else [0.0] * len(self.referee_game.names)

    def resample_from_infostate(self, player: int, sampler: Any = None) -> RefereeState:
        """A state ``player`` cannot tell from this one, drawn from the deals that
        explain what they saw (referee/openspiel/resample.py). ``sampler`` is
        OpenSpiel's; the draw uses a generator seeded from it, or from this state's
        history."""
        import random

        from referee.openspiel.resample import resample

        seed = int(sampler() * 2**32) if callable(sampler) else hash(tuple(self.history()))
        return resample(self, player, random.Random(seed))

    def __str__(self) -> str:
        return "\n".join(self.transcript())

    # -- the transcript --------------------------------------------------------------

    def transcript(self) -> list[str]:
        """The game so far as a transcript with an open deal, which ``referee check``
        reads."""
        game = self.referee_game
        lines = write_table(game.rules.reference, game.names, game.dealer,
                            tuple(game.spec.options_set.items()))
        if self.p.state is None:
            return lines
        hands, stock, centre = self.p.dealt
        lines += write_deal(game.names, hands, stock, centre)
        lay_out = game.spec.ask.handover is HANDOVER_TO_CENTRE
        lines += [format_move(move, game.names, lay_out=lay_out) for move in self.p.moves]
        return lines

    def legal_moves_notation(self) -> list[str]:
        """The acting player's whole legal moves (claims aside) as notation."""
        game, state = self.referee_game, self.p.state
        assert state is not None
        lay_out = game.spec.ask.handover is HANDOVER_TO_CENTRE
        moves = game.engine.legal_moves(state, with_claims=False)
        actor = self._acting(moves)
        return sorted(format_move(m, game.names, lay_out=lay_out)
                      for m in moves if m.player == actor)

    def play_notation(self, text: str) -> None:
        """Play the acting player's legal move written ``text`` (claims aside), token by
        token; a ValueError when no legal move is written so."""
        game, state = self.referee_game, self.p.state
        assert state is not None
        lay_out = game.spec.ask.handover is HANDOVER_TO_CENTRE
        moves = game.engine.legal_moves(state, with_claims=False)
        actor = self._acting(moves)
        found = [m for m in moves if m.player == actor
                 and format_move(m, game.names, lay_out=lay_out) == text]
        tokens = game.vocabulary.tokens(found[0]) if found else ()
        if not found or tuple(self.p.prefix) != tokens[:len(self.p.prefix)]:
            raise ValueError(f"no legal move reads {text!r}")
        played = len(self.p.moves)
        while len(self.p.moves) == played:
            self.apply_action(tokens[len(self.p.prefix)])

    def tensor_of(self, player: int) -> np.ndarray[Any, Any]:
        """A seat's own hand one-hot, every hand's size, and each set's side."""
        from referee.openspiel.observe import encode

        return encode(self, player)


def shares(game: RefereeGame, state: GameState) -> list[float]:
    """Each player's share of the win as the game stands: 1 divided among the winning
    sides, 0 for the rest."""
    players = len(game.names)
    winners = game.engine.outcome(state).winners
    if not winners:
        return [0.0] * players
    return [1.0 / len(winners) if state.side(seat) in winners else 0.0
            for seat in range(players)]


class Progress:
    """What changes as a game goes on: the deal so far, the engine's state, the moves
    and tokens played; copied cheaply (OpenSpiel clones a state by deep copy of its
    attributes)."""

    __slots__ = (
        "actor",
        "candidates",
        "dealt",
        "decisions",
        "deck",
        "game",
        "infostates",
        "moves",
        "options",
        "prefix",
        "seen",
        "state",
        "stopped",
        "story",
        "witness_cache",
    )

    def __init__(self, game: RefereeGame) -> None:
        self.game = game  # shared by every copy: fixed data
        self.deck: list[Card] = []  # the cards in deal order, as chance dealt them
        self.dealt: tuple[list[list[Card]], Sequence[Card], Sequence[Card]] = ([], (), ())
        self.state: GameState | None = None
        self.moves: list[Move] = []  # every move played, forced ones too
        self.seen: list[tuple[tuple[str, ...], ...]] = []  # each move as each seat saw it
        # each seat's seen lines joined, as far as the moves it counts (grown when asked)
        self.story: list[tuple[int, str]] = [(0, "")] * len(game.names)
        self.infostates: dict[int, str] = {}  # each seat's information state, once asked
        self.decisions: list[Token] = []  # every token a player chose
        self.prefix: list[Token] = []  # the tokens of the move being chosen
        self.stopped = False  # no move possible, or the move cap reached
        self.options: list[tuple[Token, ...]] | None = None
        self.candidates: dict[tuple[Token, ...], Move] | None = None
        self.actor: int | None = None
        self.witness_cache: dict[int, Any] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Progress:
        copy = Progress(self.game)
        copy.deck, copy.dealt = list(self.deck), self.dealt
        copy.state = None if self.state is None else self.state.copy()
        copy.moves, copy.decisions = list(self.moves), list(self.decisions)
        copy.seen, copy.story = list(self.seen), list(self.story)
        copy.infostates = dict(self.infostates)
        copy.prefix, copy.stopped = list(self.prefix), self.stopped
        copy.options, copy.actor = self.options, self.actor  # options: only replaced
        copy.candidates = self.candidates  # never changed, only replaced
        return copy
