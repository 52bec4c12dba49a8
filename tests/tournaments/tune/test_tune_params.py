"""The tuner's pieces without games: parameter files, the engine's declarations, random
rounding and clamping, fishtest's SPSA schedule, the update, the Elo models."""
import json

import numpy as np
import pytest

from mcts_engine.client.engine import parse_option_line
from tournaments.tune.spsa import Probe, make_schedule, probe, update
from tournaments.tune.model import clamped_elo, fit_differences, path_elo, smooth_values
from tournaments.tune.params import (Param, ParamError, clamp, load_params, parse_line, read_params, round_random,
                                     spec_fragment, value_text, with_engine_types)


# --- parameter files ---------------------------------------------------------------------------------

def test_the_fishtest_line_format(tmp_path):
    path = tmp_path / "params.txt"
    path.write_text("# UCB1's constant\nUCT_C,4.0,0.05,8,0.4,0.002\n\nWidth, 10, 0, 40, 2, 0.05  # spaces too\n")
    params = read_params(path)
    assert params == [Param("UCT_C", 4.0, 0.05, 8.0, 0.4, 0.002, None), Param("Width", 10, 0, 40, 2, 0.05, None)]


def test_the_openbench_type_column_and_the_optuna_short_form():
    assert parse_line("Width, int, 10, 0, 40, 2, 0.05", "x") == Param("Width", 10, 0, 40, 2, 0.05, True)
    assert parse_line("UCT_C,float,1,0,4,0.3,0.1", "x").integer is False
    assert parse_line("UCT_C,1,0,4", "x") == Param("UCT_C", 1, 0, 4, None, None, None)
    assert parse_line("Width,int,10,0,40", "x") == Param("Width", 10, 0, 40, None, None, True)


def test_toml_and_json_files(tmp_path):
    toml = tmp_path / "p.toml"
    toml.write_text('[params.UCT_C]\nstart = 4.0\nmin = 0.0\nmax = 8.0\nc_end = 0.4\nr_end = 0.3\n\n'
                    '[params.Width]\nstart = 10\nmin = 0\nmax = 40\ntype = "int"\n')
    as_json = tmp_path / "p.json"
    as_json.write_text(json.dumps({"params": {"UCT_C": {"start": 4.0, "min": 0, "max": 8, "c_end": 0.4, "r_end": 0.3},
                                              "Width": {"start": 10, "min": 0, "max": 40, "type": "int"}}}))
    expected = [Param("UCT_C", 4.0, 0.0, 8.0, 0.4, 0.3, None), Param("Width", 10, 0, 40, None, None, True)]
    assert read_params(toml) == expected
    assert read_params(as_json) == expected


def test_the_command_line_adds_to_the_file_and_names_must_differ(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("UCT_C,4,0,8,0.4,0.3\n")
    assert [p.name for p in load_params(str(path), ["Width,int,10,0,40,2,0.05"])] == ["UCT_C", "Width"]
    with pytest.raises(ParamError, match="'uct_c' is given twice"):
        load_params(str(path), ["uct_c,1,0,8,0.4,0.3"])
    with pytest.raises(ParamError, match="no parameters to tune"):
        load_params(None, [])


@pytest.mark.parametrize("text, words", [
    ("UCT_C,4.0,0.05,8,0.4", "got 5 fields"),
    ("UCT_C,four,0,8,0.4,0.1", "start 'four' is not a number"),
    ("UCT_C,4,8,0,0.4,0.1", "min 8 must be less than max 0"),
    ("UCT_C,9,0,8,0.4,0.1", "start 9 is outside [0, 8]"),
    ("UCT_C,4,0,8,0,0.1", "c_end 0 must be positive"),
    ("UCT_C,4,0,8,0.4,-1", "r_end -1 must be positive"),
    ("UCT_C,4,0,nan,0.4,0.1", "max 'nan' is not a finite number"),
    ("Width,int,10.5,0,40,2,0.1", "Width is an int parameter but its start is 10.5"),
    ("Width,integer,10,0,40,2,0.1", "expected name,start"),
    ("a=b,1,0,2,0.1,0.1", "bad option name 'a=b'"),
])
def test_bad_lines_are_errors_naming_the_file_and_line(tmp_path, text, words):
    path = tmp_path / "params.txt"
    path.write_text(f"UCT_C,4,0,8,0.4,0.1\n# comment\n{text}\n")
    with pytest.raises(ParamError) as err:
        read_params(path)
    assert f"{path}:3:" in str(err.value) and words in str(err.value)


@pytest.mark.parametrize("body, words", [
    ('[params.UCT_C]\nstart = 1\nmin = 0\n', "missing max"),
    ('[params.UCT_C]\nstart = 1\nmin = 0\nmax = 4\nstep = 2\n', "unknown keys ['step']"),
    ('[params.UCT_C]\nstart = 1\nmin = 0\nmax = 4\nc_end = 0.3\n', "give both c_end and r_end"),
    ('[params.UCT_C]\nstart = 1\nmin = 0\nmax = 4\ntype = "real"\n', "type 'real' is not int or float"),
    ('[params.UCT_C]\nstart = "x"\nmin = 0\nmax = 4\n', "start 'x' is not a number"),
    ('[param.UCT_C]\nstart = 1\n', "expected a 'params' table"),
    ('[params.UCT_C\n', "not valid TOML"),
])
def test_bad_toml_is_an_error_naming_the_parameter(tmp_path, body, words):
    path = tmp_path / "p.toml"
    path.write_text(body)
    with pytest.raises(ParamError, match=None) as err:
        read_params(path)
    assert str(path) in str(err.value) and words in str(err.value)


# --- the engine's declarations -----------------------------------------------------------------------

DECLARED = {option.name: option for option in map(parse_option_line, (
    "option name UCT_C type string default 1.0",
    "option name Width type spin default 10 min 0 max 40",
    "option name Agent type combo default uct var uct var random"))}


def test_types_come_from_the_engine_when_the_file_does_not_say():
    params = with_engine_types([Param("uct_c", 1, 0, 4), Param("WIDTH", 10, 0, 40)], DECLARED, "fake")
    assert [p.integer for p in params] == [False, True]


@pytest.mark.parametrize("param, words", [
    (Param("Depth", 1, 0, 4), "declares no such option"),
    (Param("Width", 10, 0, 40, integer=False), "declares Width as an integer (type spin): make it int"),
    (Param("Width", 10, 0, 50), "[0, 50] is outside the engine's range for Width, [0, 40]"),
    (Param("Width", 10.5, 0, 40), "Width is an int parameter but its start is 10.5"),
    (Param("Agent", 1, 0, 2), "declares Agent as type combo, not a number"),
])
def test_parameters_the_engine_cannot_take_are_errors(param, words):
    with pytest.raises(ParamError) as err:
        with_engine_types([param], DECLARED, "fake")
    assert words in str(err.value)


# --- values --------------------------------------------------------------------------------------------

INT = Param("Width", 10, 0, 40, 2, 0.05, True)
REAL = Param("UCT_C", 4.0, 0.0, 8.0, 0.4, 0.3, False)


def test_integers_are_rounded_at_random_to_their_neighbours_with_the_right_mean():
    rng = np.random.default_rng(7)
    draws = [round_random(np.array([12.3, 2.5]), [INT, REAL], rng.random(2)) for _ in range(4000)]
    ints = np.array([d[0] for d in draws])
    assert set(ints) == {12.0, 13.0}
    assert abs(ints.mean() - 12.3) < 0.03                 # floor(x + u) is x on average
    assert all(d[1] == 2.5 for d in draws)                # floats are not rounded


def test_values_are_clamped_to_their_bounds():
    assert list(clamp(np.array([-3.0, 9.5]), [INT, REAL])) == [0.0, 8.0]
    assert list(clamp(np.array([12.0, 3.25]), [INT, REAL])) == [12.0, 3.25]


def test_values_as_text_and_the_spec_fragment():
    assert value_text(INT, 12.6) == "13" and value_text(REAL, 0.8312) == "0.83" and value_text(REAL, 2.0) == "2"
    assert value_text(REAL, 0.8312345, full=True) == "0.831234"
    odd = Param("Move Overhead", 30, 0, 100, 5, 0.1, True)
    assert spec_fragment([REAL, INT, odd], [0.8312, 24.4, 31]) == \
        "option.UCT_C=0.83 option.Width=24 'option.Move Overhead=31'"


# --- SPSA ----------------------------------------------------------------------------------------------

def fishtest_gains(c_end, r_end, num_iter, iter_):
    """fishtest's server code, written out: c and R of the pair iteration ``iter_`` (0-based)."""
    A = int(0.1 * num_iter)
    c = c_end * num_iter ** 0.101
    a = r_end * c_end ** 2 * (A + num_iter) ** 0.602
    iter_local = iter_ + 1
    c_k = c / iter_local ** 0.101
    return c_k, a / (A + iter_local) ** 0.602 / c_k ** 2


def test_the_schedule_is_fishtests():
    schedule = make_schedule([REAL], 200)
    assert schedule.big_a == 20
    for k in (1, 2, 17, 100, 200):
        c_k, r_k = fishtest_gains(0.4, 0.3, 200, k - 1)
        assert schedule.c_at(k)[0] == pytest.approx(c_k, rel=1e-12)
        assert schedule.r_at(k)[0] == pytest.approx(r_k, rel=1e-12)
    assert schedule.c_at(200)[0] == pytest.approx(0.4) and schedule.r_at(200)[0] == pytest.approx(0.3)
    assert schedule.c_at(1)[0] == pytest.approx(0.4 * 200 ** 0.101)


def test_an_integer_parameter_is_perturbed_by_at_least_one():
    tiny = Param("Width", 10, 0, 40, 0.1, 0.05, True)
    schedule = make_schedule([tiny], 50)
    assert schedule.c_at(1)[0] == 0.5                       # c_end * 50 ** 0.101 = 0.15, raised to 0.5
    for k in range(1, 40):
        p = probe([tiny], schedule, [10.0], k, seed=3)
        assert abs(p.plus[0] - p.minus[0]) == 1 and p.plus[0] == int(p.plus[0])


def test_spsa_needs_c_end_and_r_end():
    with pytest.raises(ValueError, match="SPSA needs c_end and r_end for UCT_C"):
        make_schedule([Param("UCT_C", 1, 0, 4)], 10)


def test_a_probe_is_the_same_for_the_same_seed_and_iteration():
    schedule = make_schedule([REAL, INT], 30)
    one, again = probe([REAL, INT], schedule, [4.0, 10.0], 5, seed=9), probe([REAL, INT], schedule, [4.0, 10.0], 5, seed=9)
    assert one == again
    assert [probe([REAL, INT], schedule, [4.0, 10.0], k, seed=9).flips for k in range(1, 30)] != \
        [probe([REAL, INT], schedule, [4.0, 10.0], k, seed=10).flips for k in range(1, 30)]
    c = one.c[0]
    assert {round(one.plus[0] - 4.0, 12), round(one.minus[0] - 4.0, 12)} == {round(c, 12), round(-c, 12)}
    assert one.plus[0] - 4.0 == pytest.approx(c * one.flips[0])


def test_the_update_moves_towards_the_winner_and_stays_in_bounds():
    p = Probe(k=3, flips=(1, -1), c=(0.5, 2.0), r=(0.2, 0.1), plus=(4.5, 8.0), minus=(3.5, 12.0))
    # theta+ (UCT_C up, Width down) won 5 games and lost 1: both move its way, by R * c * (W - L)
    assert update([REAL, INT], [4.0, 10.0], p, 4) == pytest.approx((4.0 + 0.2 * 0.5 * 4, 10.0 - 0.1 * 2.0 * 4))
    assert update([REAL, INT], [4.0, 10.0], p, -4) == pytest.approx((4.0 - 0.4, 10.0 + 0.8))
    assert update([REAL, INT], [4.0, 10.0], p, 0) == (4.0, 10.0)
    assert update([REAL, INT], [7.9, 0.5], p, 40) == (8.0, 0.0)    # clamped


# --- Elo models -----------------------------------------------------------------------------------------

def test_clamped_elo_keeps_a_clean_sweep_finite():
    assert clamped_elo(3, 6) == 0.0
    assert clamped_elo(6, 6) == pytest.approx(-clamped_elo(0, 6)) and 400 < clamped_elo(6, 6) < 420


def test_the_quadratic_model_recovers_a_known_landscape_from_differences():
    param = Param("x", 0.0, 0.0, 10.0, 1.0, 0.1)
    truth = lambda x: -8.0 * (x - 3.0) ** 2                      # Elo, best at 3
    rng = np.random.default_rng(1)
    centres = rng.uniform(1, 9, 60)
    plus, minus = centres + 0.5, centres - 0.5
    model = fit_differences([param], plus[:, None], minus[:, None], truth(plus) - truth(minus), [1.0] * 60)
    assert model.gain([3.0], [8.0]) == pytest.approx(truth(3.0) - truth(8.0), rel=1e-6)


def test_the_smoothed_best_trial_is_nearer_the_optimum_than_the_best_scoring_one():
    """Noisy trials of a landscape best at 2 (noise of a few game pairs): the trial with the
    best smoothed Elo lies nearer 2 than the luckiest trial, over eight seeded studies."""
    param = Param("x", 0.0, 0.0, 10.0)
    smoothed_error, raw_error = [], []
    for seed in range(8):
        rng = np.random.default_rng(seed)
        x = rng.uniform(0, 10, 25)
        elo = np.maximum(100 - 30 * (x - 2) ** 2, -200) + rng.normal(0, 80, 25)
        smoothed = smooth_values([param], x[:, None], elo)
        smoothed_error.append(abs(x[int(np.argmax(smoothed.elo))] - 2))
        raw_error.append(abs(x[int(np.argmax(elo))] - 2))
    assert np.mean(smoothed_error) < 0.6 and np.mean(smoothed_error) < 0.6 * np.mean(raw_error)


def test_a_lone_lucky_trial_is_pulled_back_to_the_mean():
    param = Param("x", 0.0, 0.0, 10.0)
    points = [[0.5], [1.0], [1.5], [2.0], [2.5], [7.0], [7.5], [8.0], [8.5], [9.0], [4.5]]
    elo = [60, 100, 110, 100, 60, 0, 0, -10, 0, 0, 120]
    smoothed = smooth_values([param], points, elo)
    assert smoothed.elo[-1] < 120 - 0.25 * (120 - np.mean(elo))


def spsa_run(truth, seed, noise=100.0, iterations=30):
    """A simulated SPSA run on the Elo landscape ``truth``: each iteration measures
    ``truth(plus) - truth(minus)`` with normal noise and steps on that measurement."""
    param = Param("x", 2.0, 0.0, 10.0, 0.5, 0.1)
    schedule = make_schedule([param], iterations)
    rng = np.random.default_rng(seed)
    theta, path, plus, minus, elo = [2.0], [(2.0,)], [], [], []
    for k in range(1, iterations + 1):
        p = probe([param], schedule, theta, k, seed)
        y = truth(p.plus[0]) - truth(p.minus[0]) + rng.normal(0, noise)
        theta = update([param], theta, p, y / 25)
        plus.append(p.plus), minus.append(p.minus), elo.append(y), path.append(theta)
    return param, plus, minus, elo, [noise] * iterations, path


def test_the_path_estimate_is_not_fooled_by_spsa_following_its_own_noise():
    """On a flat landscape SPSA still wanders (it steps where its noise points): a model fitted
    to all iterations calls every step uphill, the cross-fitted estimate stays near 0."""
    cross, naive = [], []
    for seed in range(30):
        param, plus, minus, elo, noise, path = spsa_run(lambda x: 0.0, seed)
        estimate = path_elo([param], plus, minus, elo, noise, path)
        cross.append(estimate.elo[-1] / estimate.sd[-1])
        naive.append(fit_differences([param], plus, minus, elo, noise).gain(path[-1], path[0]))
    assert np.mean(naive) > 20 and np.mean(np.array(naive) > 0) > 0.9    # biased: all but never downhill
    assert abs(np.mean(cross)) < 0.5 and np.mean(np.abs(cross) < 2) >= 0.85


def test_the_path_estimate_finds_a_real_gain():
    truth = lambda x: -15.0 * (x - 6.0) ** 2                          # +240 Elo from 2 to 6
    for seed in range(5):
        param, plus, minus, elo, noise, path = spsa_run(truth, seed, noise=60.0)
        estimate = path_elo([param], plus, minus, elo, noise, path)
        real = truth(path[-1][0]) - truth(2.0)
        assert real > 100 and abs(estimate.elo[-1] - real) < 2.5 * estimate.sd[-1] + 20
