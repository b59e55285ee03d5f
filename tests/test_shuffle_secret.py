"""Secret seeds: shuffles derived from SHAKE-256, exact replay, integer seeds unchanged."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingscrib.classic.game import ClassicGame
from kingscrib.classic.record import RecordError as ClassicRecordError
from kingscrib.classic.record import check as check_classic_record
from kingscrib.classic.record import replay as replay_classic
from kingscrib.common.shuffle import SecretRandom, check_seed, is_secret, new_secret, rng_for
from kingscrib.kings.game import Game
from kingscrib.kings.movegen import legal_plays
from kingscrib.kings.moves import Exchange, Pass
from kingscrib.kings.record import RecordError, game_from_record

secrets_hex = st.binary(min_size=16, max_size=64).map(bytes.hex)


def reference_bits(secret: str, label: str, nbytes: int) -> bytes:
    """The construction written out: SHAKE-256 blocks of 136 bytes over a domain tag,
    the secret, the label and a big-endian block counter."""
    key = b"kingscrib/shuffle/1\x00" + bytes.fromhex(secret) + b"\x00" + label.encode()
    out = b""
    counter = 0
    while len(out) < nbytes:
        out += hashlib.shake_256(key + counter.to_bytes(8, "big")).digest(136)
        counter += 1
    return out[:nbytes]


@given(secrets_hex, st.text(max_size=20), st.lists(st.integers(1, 200), min_size=1,
                                                       max_size=12))
def test_bits_follow_the_documented_construction(secret: str, label: str, sizes) -> None:
    rng = SecretRandom(secret, label)
    stream = reference_bits(secret, label, sum((k + 7) // 8 for k in sizes))
    at = 0
    for k in sizes:
        n = (k + 7) // 8
        want = int.from_bytes(stream[at:at + n], "big") >> (n * 8 - k)
        at += n
        assert rng.getrandbits(k) == want
        assert 0 <= want < 2 ** k


@given(secrets_hex, st.text(max_size=10))
@settings(max_examples=50)
def test_a_shuffle_is_a_permutation_fixed_by_secret_and_label(secret: str, label: str) -> None:
    a, b = list(range(100)), list(range(100))
    rng_for(secret, label).shuffle(a)
    rng_for(secret, label).shuffle(b)
    assert a == b and sorted(a) == list(range(100))
    c = list(range(100))
    rng_for(secret, label + "/other").shuffle(c)
    assert c != a  # another label, another order (a 1 in 100! coincidence otherwise)


def test_shuffles_are_uniform_over_many_secrets() -> None:
    # Every one of the 24 orders of 4 items, over 4,800 secrets: chi-square with 23 degrees
    # of freedom stays under 49.7 (p = 0.001) for a uniform shuffle.
    counts: Counter[tuple] = Counter()
    for i in range(4800):
        items = [0, 1, 2, 3]
        rng_for(hashlib.sha256(str(i).encode()).hexdigest(), "deal").shuffle(items)
        counts[tuple(items)] += 1
    assert len(counts) == 24
    chi2 = sum((c - 200) ** 2 / 200 for c in counts.values())
    assert chi2 < 49.7


def test_integer_seeds_draw_exactly_as_before() -> None:
    mine, old = rng_for(7), random.Random(7)
    assert [mine.random() for _ in range(3)] == [old.random() for _ in range(3)]
    a, b = list(range(50)), list(range(50))
    rng_for(7, "shake/3").shuffle(a)
    random.Random("7/shake/3").shuffle(b)
    assert a == b


def test_secrets_are_256_bits_of_hex_and_bad_seeds_are_refused() -> None:
    s = new_secret()
    assert is_secret(s) and len(s) == 64 and new_secret() != s
    for bad in ["", "xyz", "ABCDEF" * 8, "ab" * 15, "a" * 129, 1.5, True, None, [1]]:
        with pytest.raises(ValueError, match="seed"):
            check_seed(bad)
    with pytest.raises(ValueError):
        Game.new(2, seed="not hex")
    with pytest.raises(ValueError):
        ClassicGame(seed="0123")


def play_out(game: Game, turns: int) -> None:
    for _ in range(turns):
        if game.is_over:
            return
        plays = legal_plays(game.board, game.racks[game.turn], game.rules)
        if plays:
            game.play(plays[0].play)
        elif game.tiles_in_bags:
            game.play(Exchange.of(game.racks[game.turn][:2]))
        else:
            game.play(Pass())


def test_a_kings_game_on_a_secret_replays_exactly_from_its_record() -> None:
    secret = new_secret()
    game = Game.new(["Ann", "Bob", "Cy"], seed=secret)
    play_out(game, 30)
    record = game.to_record()
    assert record["seed"] == secret
    again = game_from_record(record)
    assert again.racks == game.racks and again.bags == game.bags
    assert again.scores == game.scores
    # the same record with another secret does not replay
    with pytest.raises(RecordError):
        game_from_record(dict(record, seed=new_secret()))
    with pytest.raises(RecordError, match="seed"):
        game_from_record(dict(record, seed="abc"))


def test_two_secrets_deal_different_racks_and_one_secret_the_same() -> None:
    s = new_secret()
    assert Game.new(2, seed=s).racks == Game.new(2, seed=s).racks
    assert Game.new(2, seed=s).racks != Game.new(2, seed=new_secret()).racks


def test_a_classic_game_on_a_secret_replays_from_its_record() -> None:
    secret = new_secret()
    game = ClassicGame(seed=secret)
    for _ in range(40):
        if game.phase == "over":
            break
        seat = game.waiting_for()[0]
        game.apply(game.legal_for(seat)[0], seat)
    record = game.record()
    assert record["seed"] == secret
    check_classic_record(record)
    assert replay_classic(record).scores == game.scores
    with pytest.raises(ClassicRecordError, match="seed"):
        check_classic_record(dict(record, seed="not a seed"))


def test_a_secret_generator_pickles_mid_stream_and_goes_on_the_same() -> None:
    """A game sent to a worker process (the web server's) carries its generators."""
    import pickle

    rng = SecretRandom(new_secret(), "deal")
    rng.random()
    rng.getrandbits(5)  # part of a block used: the rest waits in the buffer
    copy = pickle.loads(pickle.dumps(rng))
    assert [copy.getrandbits(64) for _ in range(20)] == [rng.getrandbits(64) for _ in range(20)]
    game = Game.new(["Ann", "Bob"], seed=new_secret())
    play_out(game, 6)
    again = pickle.loads(pickle.dumps(game))
    assert again.racks == game.racks and again.bags == game.bags
