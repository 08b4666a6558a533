"""A refused option raises ValueError with the command line's message (the cases of
test/check-bad-inputs.py for reps-lb-comparison), and the interpreter survives."""

import importlib.util
import os
import re

import pytest

import reps

SMALL = dict(leaves=2, hostsPerLeaf=2, spines=2)

# (options, the message the command line prints): a few of the hand-written cases, plus
# values of the other kinds.
CASES = [
    (dict(ecnKmin=90), r"--ecnKmax: 80 is out of range; expected .*\[90, 100\]"),
    (dict(startTime="5us", stopTime="1us"), r"--stopTime: must be later than --startTime"),
    (dict(degradeLeaf=2), r"--degradeLeaf: 2 is out of range; expected .*\[-1, 1\]"),
    (dict(mtu=9001), r"--mtu: 9001 is out of range; expected .*\[64, 9000\]"),
    (dict(tiers=4), r"--tiers: 4 is not allowed; allowed: 2"),
    (dict(lb="foo"), r"--lb: unknown path selector 'foo'; allowed: bitmap, ecmp"),
    (dict(lb=["ecmp", "ecmp"]), r"--lb"),
    (dict(flowSize=-1), r"--flowSize: .*cannot be negative"),
    (dict(flowSize="1.5B"), r"--flowSize: '1.5B' is not a whole number of bytes"),
    (dict(linkRate="fast"), r"--linkRate: 'fast' is not a rate"),
    (dict(load=1.5), r"--load: 1.5 is out of range"),
    (dict(rto="-5us"), r"--rto .*'-5us' is not a time >= 0"),
    (dict(trim="maybe"), r"--trim"),
    (dict(leaves=1.5), r"--leaves"),
    (dict(cc="cubic"), r"--cc: unknown congestion control .cubic.; allowed: dcqcn"),
    (dict(evSpace=64, lb="ops,mrc"), r"--evSpace: 64 is too small for mrc"),
    (dict(json="/nonexistent-dir/out.json"), r"--json: cannot write"),
    (dict(nosuchoption=1), r"--nosuchoption: not an option; allowed: lb, tiers"),
    ({"ns3::RepsPathSelector::Nope": 1}, r"ns3::RepsPathSelector has no attribute 'Nope'"),
    ({"ns3::RepsPathSelector::FreezeDuration": "-1us"}, r"FreezeDuration"),
    (dict(RngSeed="x"), r"--RngSeed: 'x'"),
    (dict(SchedulerType="ns3::Object"), r"--SchedulerType: 'ns3::Object' is not a scheduler"),
]


@pytest.mark.parametrize("options,message", CASES, ids=[str(c[0]) for c in CASES])
def test_refused(options, message):
    with pytest.raises(ValueError, match=message):
        reps.Experiment(**dict(SMALL, **options))


def test_refused_in_run(tiny):
    """run(lb=...) is checked like the option."""
    exp = reps.Experiment(**tiny)
    with pytest.raises(ValueError, match=r"--lb: unknown path selector 'nope'"):
        exp.run(lb=["ecmp", "nope"])
    assert exp.run(lb=["ecmp"])["ecmp"].completed == 4


def test_not_a_value():
    with pytest.raises(ValueError, match=r"--leaves: \{\} is not an option value"):
        reps.Experiment(leaves={})


def load_matrix():
    """test/check-bad-inputs.py, for its table of values per kind of option."""
    source = os.environ.get("REPS_SOURCE_DIR")
    path = source and os.path.join(source, "test", "check-bad-inputs.py")
    if not path or not os.path.exists(path):
        return None
    spec = importlib.util.spec_from_file_location("check_bad_inputs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_matrix_of_kinds():
    """Every value the bad-input matrix gives the options of a few kinds is refused."""
    matrix = load_matrix()
    if matrix is None:
        pytest.skip("REPS_SOURCE_DIR not set (run through ctest)")
    kinds = matrix.KINDS[None]
    options = ["leaves", "linkRate", "linkDelay", "flowSize", "load", "markOn", "evSpace"]
    for option in options:
        for value in matrix.KIND_VALUES[kinds[option]]:
            with pytest.raises(ValueError, match=re.escape("--" + option)):
                reps.Experiment(**dict(SMALL, **{option: value}))


def _options(args):
    """{name: value} of command-line words --name=value."""
    return dict(a[2:].split("=", 1) if "=" in a else (a[2:], "true") for a in args)


def test_whole_matrix_of_reps_lb_comparison(examples_dir, tmp_path):
    """Every case of the bad-input matrix for reps-lb-comparison (each option with every bad
    value of its kind, and the hand-written cases) is refused from Python with ValueError;
    for the hand-written cases the message is the command line's, word for word (a list of
    path selectors in Python also names those registered from Python)."""
    import subprocess
    matrix = load_matrix()
    if matrix is None:
        pytest.skip("REPS_SOURCE_DIR not set (run through ctest)")
    tiny = _options(matrix.TINY["reps-lb-comparison"])
    names = set(reps.option_names())
    generic = 0
    for option, kind in sorted(matrix.KINDS[None].items()):
        if option not in names:
            continue  # an option of another example
        for value in matrix.KIND_VALUES[kind]:
            regex = (r"--%s\b.*%s|--%s\b[^\n]*\n?[^\n]*%s"
                     % (option, matrix.ALLOWED, option, matrix.ALLOWED))
            with pytest.raises(ValueError) as refused:
                reps.Experiment(**dict(tiny, **{option: value}))
            assert re.search(regex, str(refused.value)), (option, value, str(refused.value))
            generic += 1
    assert generic > 400
    program = os.path.join(examples_dir, "reps-lb-comparison")
    table = 0
    for example, args, regex in matrix.CASES:
        if example != "reps-lb-comparison":
            continue
        args = [a.replace("{tmp}", str(tmp_path)) for a in args]
        out = subprocess.run([program] + matrix.TINY[example] + args, capture_output=True,
                             text=True, stdin=subprocess.DEVNULL, timeout=60)
        line = next(l for l in (out.stdout + out.stderr).splitlines() if l.startswith("error: "))
        with pytest.raises(ValueError) as refused:
            reps.Experiment(**dict(tiny, **_options(args)))
        message = str(refused.value)
        for name in reps.registered_selectors():  # the Python selectors of other tests
            message = message.replace(", " + name, "")
        assert message == line[len("error: "):], (args, line)
        table += 1
    assert table > 50
