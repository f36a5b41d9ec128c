"""The option cards in the file format (docs/format.md, "Option cards"):
the default of rules.options, the register grammar, canonical save, and
the validator's option problems."""
from __future__ import annotations

import copy

import pytest

from rallyforge.engine.format.loader import dumps, load_dict, parse_json
from rallyforge.engine.validation.validator import validate_data


def course(**robot) -> dict:
    return {"format": "rally-scenario", "version": 1, "name": "t",
            "board": {"width": 5, "height": 5}, "flags": [{"x": 4, "y": 4}],
            "docks": [{"x": 0, "y": 0, "facing": "E"}, {"x": 0, "y": 1, "facing": "E"}],
            "robots": [{"name": "A", **robot}, {"name": "B"}]}


def test_older_files_keep_counted_options():
    assert load_dict(course(options=2)).rules.options == "counted"


@pytest.mark.parametrize("feature", [
    {"robot": {"options": ["brakes"]}},
    {"robot": {"program": [["move1/brakes"]]}},
    {"robot": {"program": [{"cards": [], "recompile": True}]}},
    {"rules": {"start_options": 1}},
    {"rules": {"flag_gives_option": True}},
    {"checks": [{"round": 1, "robot": "A", "option_cards": []}]},
])
def test_an_option_feature_makes_options_played(feature):
    doc = course(**feature.get("robot", {}))
    doc.update({k: v for k, v in feature.items() if k != "robot"})
    assert load_dict(doc).rules.options == "played"


def test_canonical_save_keeps_the_meaning_of_options():
    doc = course(options=["crab-legs", "brakes"], shield_with_options=True, program=[
        ["move1+left:70/crab-legs", "move3:790/fourth-gear", "move1@pressor-beam",
         "right@fire-control:option", "move2:700+uturn/dual-processor"],
        {"cards": ["back/reverse-gears"], "use": ["gyroscopic-stabilizer"], "abort_at": 3,
         "recompile": True, "conditional": {"card": "move2", "register": 4},
         "flywheel": "move3:800"}])
    doc["rules"] = {"start_options": 1, "options": "counted"}
    s = load_dict(doc)
    text = dumps(s)
    again = load_dict(parse_json(text)[0])
    assert again == s
    saved = parse_json(text)[0]
    assert saved["rules"]["options"] == "counted"       # the file's default would be played
    assert saved["robots"][0]["program"][0][0] == "move1+left:70/crab-legs"
    assert saved["robots"][0]["program"][1]["conditional"] == {"card": "move2", "register": 4}
    assert "options" not in saved["robots"][1]          # absent: start_options


def test_played_is_not_written_when_it_is_the_files_default():
    doc = course(options=["brakes"])
    saved = parse_json(dumps(load_dict(doc)))[0]
    assert "rules" not in saved
    plain = parse_json(dumps(load_dict(course())))[0]
    assert "rules" not in plain


def problems(doc: dict) -> list[tuple[str, str, str]]:
    return [(p.code, p.pointer, p.message) for p in validate_data(doc)]


@pytest.mark.parametrize("entry, words", [
    ("move1+uturn/crab-legs", "crab-legs pairs move1 (first) with left or right"),
    ("left+move1/crab-legs", "crab-legs pairs move1 (first)"),
    ("move1+left", "need /crab-legs or /dual-processor"),
    ("move2/crab-legs", "need /crab-legs or /dual-processor"),
    ("move1/bogus", "'bogus' is not an option card"),
    ("move1/pressor-beam", "after '/' must be one of"),
    ("move1@brakes", "after '@' must be one of"),
    ("move1@pressor-beam:option", "only @fire-control takes a mode"),
    ("move1@pressor-beam:2", "only @fire-control takes a mode"),
    ("move1/brakes/brakes", "at most one"),
    ("move1@fire-control:6", "@fire-control takes :1 to :5 (the register to lock), :option or "
                             ":option=ID (the option to destroy), not :6"),
    ("move1@fire-control:0", "not :0"),
    ("move1@fire-control:12", "not :12"),
    ("move1@fire-control:options", "not :options"),
    ("move1@fire-control:option=jetpack", "'jetpack' is not an option card"),
    ("move1@fire-control:option=", "'' is not an option card"),
    ("left+right/dual-processor", "dual-processor pairs move1 or move2 or move3 or back (first)"),
    ("move2+move1/dual-processor", "not move2 with move1"),
])
def test_malformed_registers_are_errors_with_their_pointer(entry, words):
    found = problems(course(program=[["move1", entry]]))
    assert [(c, w) for c, w, _ in found if c.startswith("E")] == [("E107", "/robots/0/program/0/1")]
    assert words in found[0][2]


@pytest.mark.parametrize("entry", [
    "move1+left/dual-processor", "back+uturn/dual-processor", "back:440+right:90/dual-processor",
    "move3+left/dual-processor", "right@fire-control:1", "right@fire-control:5",
    "right@fire-control", "right@fire-control:option", "right@fire-control:option=brakes",
    "move2+uturn/dual-processor@fire-control:option=superior-archive-copy"])
def test_the_printed_cards_forms_are_valid_and_saved_as_written(entry):
    doc = course(options=["dual-processor", "fire-control"], program=[
        [entry], {"cards": [entry], "take_flywheel": True}])
    assert [p for p in problems(doc) if p[0].startswith("E")] == []
    s = load_dict(doc)
    saved = parse_json(dumps(s))[0]["robots"][0]["program"]
    assert saved[0] == [entry] and saved[1]["take_flywheel"] is True
    assert load_dict(parse_json(dumps(s))[0]) == s


def test_take_flywheel_is_a_boolean():
    found = problems(course(program=[{"cards": [], "take_flywheel": "yes"}]))
    assert [(c, w) for c, w, _ in found if c.startswith("E")] == [
        ("E101", "/robots/0/program/0/take_flywheel")]


def test_a_card_held_by_two_robots():
    doc = course(options=["brakes", "scrambler"])
    doc["robots"][1]["options"] = ["scrambler"]
    assert [p for p in problems(doc) if p[0] == "E313"][0][1] == "/robots/1/options/0"


def test_an_unknown_option_id_is_an_error():
    found = problems(course(options=["brakes", "jetpack"]))
    assert found[0][:2] == ("E102", "/robots/0/options/1")


def test_option_cards_check_needs_played_options():
    doc = course()
    doc["rules"] = {"options": "counted"}
    doc["checks"] = [{"round": 1, "robot": "A", "option_cards": ["brakes"]}]
    assert [p[:2] for p in problems(doc) if p[0] == "E314"] == [("E314", "/checks/0/option_cards")]


def test_a_use_the_robots_cards_cannot_make_is_a_warning():
    doc = course(options=["brakes"], program=[["move1/brakes", "move1@scrambler"],
                                              {"cards": [], "abort_at": 2},
                                              {"cards": [], "take_flywheel": True}])
    warned = [p[:2] for p in problems(doc) if p[0] == "W410"]
    assert warned == [("W410", "/robots/0/program/0/1"), ("W410", "/robots/0/program/1/abort_at"),
                      ("W410", "/robots/0/program/2/take_flywheel")]
    dealt = copy.deepcopy(doc)
    dealt["robots"][0]["options"] = 2               # dealt cards are unknown: no warning
    assert not [p for p in problems(dealt) if p[0] == "W410"]
