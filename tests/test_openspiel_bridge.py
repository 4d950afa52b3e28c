"""Every rule file as an OpenSpiel game (referee/openspiel/): OpenSpiel's own checks
pass, its search bot plays whole games, every game played checks legal with
``referee.check``, the resampled deals are uniform on a tiny deck, and the
``go-fish-openspiel`` rule file through the bridge agrees with OpenSpiel's ``go_fish``.

Skipped when OpenSpiel is not installed (the ``openspiel`` extra).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest

import referee
from referee.language.cards import STANDARD_RANKS, STANDARD_SUITS

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import referee.openspiel  # noqa: E402  (registers the game)

RULES = Path(__file__).parent.parent / "rules"
TINY = Path(__file__).parent / "rules_support" / "hidden" / "tiny-go-fish.rules"
NAMES = sorted(path.stem for path in RULES.glob("*.rules"))


def table_size(name: str) -> int:
    """A small table the rules take: six for team games, else three (or the least)."""
    rules = referee.load_rules(name)
    if rules.spec.teams:
        return 6 if 6 in rules.players else min(rules.players)
    return 3 if 3 in rules.players else min(rules.players)


def load(name: str, players: int) -> object:
    return pyspiel.load_game(f"referee(rules={name},players={players})")


def play_out(state: object, rng: random.Random, choose: object = None) -> object:
    """Play to the end: chance at random, the players by ``choose`` or at random."""
    while not state.is_terminal():  # type: ignore[attr-defined]
        if state.is_chance_node():  # type: ignore[attr-defined]
            outcomes = [a for a, _ in state.chance_outcomes()]  # type: ignore[attr-defined]
            state.apply_action(rng.choice(outcomes))  # type: ignore[attr-defined]
        elif choose is None:
            state.apply_action(rng.choice(state.legal_actions()))  # type: ignore[attr-defined]
        else:
            state.apply_action(choose(state))  # type: ignore[operator,attr-defined]
    return state


@pytest.mark.parametrize("name", NAMES)
def test_random_sim_test_passes_and_games_check_legal(name: str) -> None:
    game = load(name, table_size(name))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    for seed in range(2):
        state = play_out(game.new_initial_state(), random.Random(seed))
        verdict = referee.check(str(state))
        assert verdict.ok, str(state) + "\n" + verdict.report()
        assert sum(state.returns()) > 0 or state.p.stopped or not verdict.outcome.winners
        if not state.p.stopped:  # returns by side: 1 shared among the winning sides
            sides = [state.p.state.side(seat) for seat in range(game.num_players())]
            names = ([str(side + 1) for side in sides] if verdict.outcome.by == "team"
                     else list(state.referee_game.names))
            winners = verdict.outcome.winners
            share = 1 / len(winners) if winners else 0.0
            assert state.returns() == pytest.approx(
                [share if names[seat] in winners else 0.0 for seat in range(len(sides))])


class Even(mcts.Evaluator):  # type: ignore[misc]
    """No rollout: every leaf worth the same, so that a test game is quick; the search
    still resamples a deal for every simulation."""

    def evaluate(self, state: object) -> object:
        return np.zeros(state.num_players())  # type: ignore[attr-defined]

    def prior(self, state: object) -> list[tuple[int, float]]:
        actions = state.legal_actions()  # type: ignore[attr-defined]
        return [(action, 1.0 / len(actions)) for action in actions]


@pytest.mark.parametrize("name", [name if name in ("go-fish", "literature") else
                                  pytest.param(name, marks=pytest.mark.slow) for name in NAMES])
def test_ismcts_plays_a_whole_game_that_checks_legal(name: str) -> None:
    game = load(name, table_size(name))
    evaluator = Even()
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=2,
                           random_state=np.random.RandomState(2))
    state = play_out(game.new_initial_state(), random.Random(3), bot.step)
    verdict = referee.check(str(state))
    assert verdict.ok, str(state) + "\n" + verdict.report()


def test_game_parameters_set_the_rule_files_options() -> None:
    game = pyspiel.load_game("referee(rules=literature,players=6,history=yes)")
    assert game.spec.options_set == {"history": "yes"}
    assert game.num_players() == 6
    assert "option history: yes" in str(game.new_initial_state())


def test_a_rule_file_by_path_and_a_wrong_table_size() -> None:
    game = pyspiel.load_game(f"referee(rules={TINY},players=2)")
    assert game.num_distinct_actions() > 0
    with pytest.raises(ValueError, match="is for 2 or 3 players, not 5"):
        pyspiel.load_game(f"referee(rules={TINY},players=5)")


def test_strings_and_tensors_never_hold_another_hand() -> None:
    game = load("go-fish", 3)
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    for _ in range(12):
        for seat in range(3):
            own = state.p.state.hands[seat]
            others = set().union(*(h for s, h in enumerate(state.p.state.hands) if s != seat))
            for text in (state.information_state_string(seat), state.observation_string(seat)):
                holds = text.splitlines()[-1].split(" | ")[0]
                assert set(holds.split()[2:]) == own or own == set()
                assert not others & set(holds.split())
            tensor = np.array(state.information_state_tensor(seat))
            cards = game.spec.cards
            assert {cards[i] for i in np.flatnonzero(tensor[:len(cards)])} == own
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", NAMES)
def test_a_seats_strings_and_tensors_fit_deals_with_other_hands(name: str) -> None:
    """No rule file's strings or tensors tell a seat another hand: right after the deal
    (and the sets laid at once) they name no card another hand holds, and all along the
    game the deals resampled for the seat hold other hands than the true one while the
    seat's strings and tensors stay the same (a string that showed a hidden card would
    fit the true deal alone)."""
    players = table_size(name)
    game = load(name, players)
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    for seat in range(players):
        hidden = set().union(*(hand for s, hand in enumerate(state.p.state.hands) if s != seat))
        for text in (state.information_state_string(seat), state.observation_string(seat)):
            assert not hidden & set(text.replace("|", " ").split()), text
    differ = 0
    for step in range(24):
        if state.is_terminal():
            break
        if step % 8 == 0:
            for seat in range(players):
                sample = state.resample_from_infostate(seat, rng.random)
                assert sample.information_state_string(seat) == \
                    state.information_state_string(seat)
                assert sample.observation_string(seat) == state.observation_string(seat)
                for kind in ("information_state_tensor", "observation_tensor"):
                    assert getattr(sample, kind)(seat) == getattr(state, kind)(seat)
                differ += any(mine != theirs for s, (mine, theirs) in enumerate(
                    zip(sample.p.state.hands, state.p.state.hands, strict=True)) if s != seat)
        state.apply_action(rng.choice(state.legal_actions()))
    assert differ > 0 and game.resample_counts.true_state == 0
    _assert_each_seat_saw_what_the_table_saw(state)


def _assert_each_seat_saw_what_the_table_saw(state: object) -> None:
    """Every move in a seat's story is as the table saw it (the engine's ``as_seen``,
    what a hidden transcript writes), but for cards that came into the seat's hand."""
    from referee.engine.state import PHASE_OVER
    from referee.language.spec import HANDOVER_TO_CENTRE
    from referee.openspiel.observe import replay_start
    from referee.transcript.writer import format_move

    game, p = state.referee_game, state.p  # type: ignore[attr-defined]
    engine, names = game.engine, tuple(game.names)
    lay_out = engine.spec.ask.handover is HANDOVER_TO_CENTRE
    now = replay_start(state)
    for number, move in enumerate(p.moves):
        table = tuple(format_move(m, names, lay_out=lay_out) for m in engine.as_seen(now, move))
        engine.apply(now, move)
        for seat in range(len(names)):
            seen = p.seen[number][seat]
            if seen != table:
                named = set(" ".join(seen).split()) & set(game.spec.cards)
                assert named <= now.hands[seat] or now.phase is PHASE_OVER, (seat, seen, table)
    text = state.information_state_string(len(names) - 1)  # type: ignore[attr-defined]
    assert text.splitlines()[1:-1] == [line for each in p.seen for line in each[-1]]


def test_actions_read_as_notation_and_claims_go_by_steps() -> None:
    game = load("literature", 6)
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    words = {state.action_to_string(state.current_player(), a) for a in state.legal_actions()}
    assert words == {"asks", "claims"}  # the first step: which kind of move
    state.apply_action(next(a for a in state.legal_actions()
                            if state.action_to_string(state.current_player(), a) == "claims"))
    sets = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
    assert "low hearts" in sets
    state.apply_action(state.legal_actions()[0])
    holders = {state.action_to_string(state.current_player(), a) for a in state.legal_actions()}
    assert holders == {"Ann", "Cy", "Eve"}  # the claimer's team, one card at a time


# -- resampling -------------------------------------------------------------------------


def _key(state: object) -> tuple[object, ...]:
    """A deal as what matters: each hand as a set, the stock in order."""
    hands, stock, centre = state.p.dealt  # type: ignore[attr-defined]
    return (*(frozenset(hand) for hand in hands), tuple(stock), tuple(centre))


def _consistent_deals(game: object, state: object, seat: int) -> set[tuple[object, ...]]:
    """Every deal of the tiny deck that ``seat`` cannot tell from ``state``'s."""
    seen = state.information_state_string(seat)  # type: ignore[attr-defined]
    cards = game.spec.cards  # type: ignore[attr-defined]
    found = set()
    for order in itertools.permutations(range(len(cards))):
        other = game.new_initial_state()  # type: ignore[attr-defined]
        for action in order:
            other.apply_action(action)
        try:
            for token in state.p.decisions:  # type: ignore[attr-defined]
                if other.is_terminal() or token not in other.legal_actions():
                    raise ValueError
                other.apply_action(token)
        except ValueError:
            continue
        if other.information_state_string(seat) == seen:
            found.add(_key(other))
    return found


@pytest.mark.parametrize("moves", [0, 1])
def test_resampled_deals_are_near_uniform_on_a_tiny_deck(moves: int) -> None:
    """Against exhaustive enumeration of the 720 deals: every sample is a deal the seat
    cannot tell apart, every such deal comes up, and the total variation distance from
    uniform is small."""
    game = pyspiel.load_game(f"referee(rules={TINY},players=2)")
    for seed in itertools.count():  # the first game still going after ``moves`` choices
        rng = random.Random(seed)
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        for _ in range(moves):
            if not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            break
    seat = state.current_player()
    truth = _consistent_deals(game, state, seat)
    samples = 1500
    counts = Counter(_key(state.resample_from_infostate(seat, rng.random))
                     for _ in range(samples))
    assert set(counts) <= truth
    assert set(counts) == truth
    distance = 0.5 * sum(abs(counts[k] / samples - 1 / len(truth)) for k in truth)
    assert distance < 0.12, (distance, len(truth))


# -- agreement with OpenSpiel's own go_fish --------------------------------------------------


def _go_fish_game(seed: int, players: int) -> tuple[list[str], list[list[str]], list[str]]:
    """A random OpenSpiel go_fish game: its deck in our deal order, and at each of its
    decisions the legal asks (as notation) and the one chosen."""
    game = pyspiel.load_game("go_fish", {"players": players})
    state = game.new_initial_state()
    rng = random.Random(seed)
    initial = 7 if players == 2 else 5
    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")[:players]
    next_suit = dict.fromkeys(range(13), 0)
    hands: list[list[str]] = [[] for _ in range(players)]
    stock: list[str] = []  # refills of books made in the deal, then the draws
    legal: list[list[str]] = []
    chosen: list[str] = []

    def ask(action: int) -> str:
        target, rank = divmod(action, 13)
        return f"{names[state.current_player()]} asks {names[target]} for {STANDARD_RANKS[rank]}"

    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            rank = rng.choices(outcomes, weights)[0]
            card = STANDARD_RANKS[rank] + STANDARD_SUITS[next_suit[rank]]
            next_suit[rank] += 1
            dealing = str(state).startswith("Deal")
            receiver = next((s for s in range(players) if len(hands[s]) < initial), None)
            if dealing and receiver is not None:
                hands[receiver].append(card)
            else:
                stock.append(card)
            state.apply_action(rank)
            continue
        legal.append(sorted(ask(a) for a in state.legal_actions()))
        action = rng.choice(state.legal_actions())
        chosen.append(ask(action))
        state.apply_action(action)
    dealt = {c for hand in hands for c in hand} | set(stock)
    rest = [r + s for r in STANDARD_RANKS for s in STANDARD_SUITS if r + s not in dealt]
    deal_order = [s for _ in range(initial) for s in range(players)]  # one each, from Ann
    held = [iter(hand) for hand in hands]
    deck = [next(held[seat]) for seat in deal_order]
    return [*deck, *stock, *rest], legal, chosen


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_go_fish_openspiel_agrees_with_openspiels_go_fish(players: int) -> None:
    game = load("go-fish-openspiel", players)
    index = {card: i for i, card in enumerate(game.spec.cards)}
    for seed in range(8):
        deck, legal, chosen = _go_fish_game(seed * 101 + players, players)
        state = game.new_initial_state()
        for card in deck:
            state.apply_action(index[card])
        for step, (allowed, move) in enumerate(zip(legal, chosen, strict=True)):
            asks = [m for m in state.p.moves if type(m).__name__ == "Ask"]
            if len(asks) == step:  # the bridge waits for this ask
                assert state.legal_moves_notation() == allowed, (seed, step)
                state.play_notation(move)
            else:  # the bridge played it: it was the only ask
                assert allowed == [move]
        assert state.is_terminal()
        assert referee.check(str(state)).ok


def test_ismcts_takes_at_least_two_simulations() -> None:
    """OpenSpiel's search fails on its own assertion after one simulation: refused."""
    from referee.openspiel.policy import ismcts_policy

    with pytest.raises(referee.RefereeError, match="at least 2 simulations"):
        ismcts_policy(1)


def test_ismcts_policy_chooses_legal_moves_for_engine_driven_self_play() -> None:
    from referee.authoring.selfplay import random_move
    from referee.engine.core import Engine
    from referee.openspiel.policy import ismcts_policy

    engine = Engine(referee.load_rules("go-fish").spec)
    policy = ismcts_policy(2)
    rng = random.Random(4)
    hands, rest = engine.shuffled_deal(2, 1, 11)
    stock, centre = engine.split_rest(2, rest)
    state = engine.start(("Ann", "Bob"), 1, hands, stock, centre=centre)
    moves: list[object] = []
    while not state.over:
        move = (policy(engine, hands, stock, centre, moves, rng)
                if engine.current_player(state) == 0
                else random_move(engine, state, rng))
        assert move is not None and engine.is_legal(state, move)
        moves.append(move)
        engine.apply(state, move)


def test_simulate_plays_ismcts_seats_and_its_games_check_legal(tmp_path: Path) -> None:
    """``referee simulate --policy ismcts:N,random``: the seats named play by ISMCTS, and
    every game written checks legal; a match, which the bridge does not deal, is refused."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "referee", "simulate", "go-fish", "-p", "2",
                           "-g", "2", "--policy", "ismcts:2,random", "--out", str(tmp_path),
                           "--json"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert '"ismcts:2"' in done.stdout
    games = sorted(tmp_path.glob("*.txt"))
    assert len(games) == 2
    assert all(referee.check_file(game).ok for game in games)
    match = subprocess.run([sys.executable, "-m", "referee", "simulate", "go-fish", "-p", "2",
                            "-g", "1", "--target", "40", "--policy", "ismcts:2"],
                           capture_output=True, text=True, check=False)
    assert match.returncode == 2 and "not the hands of a match" in match.stderr
    assert "Traceback" not in match.stderr


@pytest.mark.parametrize("args", [
    ["go-fish", "--target", "1"],  # a match that one hand would end: refused all the same
    [str(Path(__file__).parent / "rules_support" / "tiny-match.rules")],
    ["go-fish", "--compare", str(Path(__file__).parent / "rules_support" / "tiny-match.rules")],
])
def test_ismcts_refuses_a_match_before_any_game(args: list[str]) -> None:
    from click.testing import CliRunner

    from referee.cli.commands import main

    done = CliRunner().invoke(main, ["simulate", *args, "-p", "2", "-g", "1",
                                     "--policy", "random,ismcts:2"])
    assert done.exit_code == 2, done.output
    assert "ismcts plays single games, not the hands of a match" in done.output
    assert "moves per" not in done.output  # refused before any game was played
