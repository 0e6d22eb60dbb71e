"""The project's own promises: one package list, the API contract, executed notebooks."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import evalkit

from .conftest import REPO, load_script

NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
API_MD = REPO.parent / "shared" / "API.md"


def _requirement(line: str) -> tuple[str, str]:
    # pip's extras (dask[dataframe]) have no conda spelling: compared without them.
    match = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?\s*(.*?)\s*", line)
    assert match, f"cannot read requirement {line!r}"
    name = re.sub(r"[-_.]+", "-", match.group(1)).lower()
    return name, match.group(2).replace(" ", "")


def _project() -> dict:
    tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python >= 3.11")
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def _pyproject_requirements() -> set[tuple[str, str]]:
    project = _project()
    lines = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        lines.extend(extra)
    return {_requirement(line) for line in lines}


def _environment_requirements() -> set[tuple[str, str]]:
    found = set()
    text = (REPO / "environment.yml").read_text()
    assert "\ndependencies:\n" in text
    for raw in text.split("\ndependencies:\n", 1)[1].splitlines():
        line = raw.split("#", 1)[0].rstrip()
        match = re.fullmatch(r"\s*-\s+(.+)", line)
        if not match or match.group(1).endswith(":"):
            continue
        entry = match.group(1).strip()
        if entry.startswith("-e") or entry in ("pip",):
            continue
        name, spec = _requirement(entry)
        if name == "python":
            continue
        found.add((name, spec))
    return found


def test_environment_yml_lists_the_same_packages_as_pyproject():
    pyproject, environment = _pyproject_requirements(), _environment_requirements()
    assert pyproject == environment, (
        f"only in pyproject.toml: {sorted(pyproject - environment)}; "
        f"only in environment.yml: {sorted(environment - pyproject)}")


def test_runtime_dependencies_are_the_chosen_five():
    project = _project()
    names = {_requirement(line)[0] for line in project["dependencies"]}
    assert names == {"numpy", "pandas", "scipy", "matplotlib", "ipywidgets"}


def _oldest():
    return load_script(REPO / "tools" / "oldest.py", "oldest")


def test_make_test_oldest_pins_exactly_the_floors_of_pyproject():
    oldest = _oldest()
    declared = dict(_pyproject_requirements())
    floors = oldest.floors()
    assert {name: f">={version}" for name, version in floors.items()} == declared
    pins = dict(line.split("==") for line in oldest.pins())
    # dask is pinned with its dataframe extra, so that pandas' pyarrow comes too.
    assert "dask[dataframe]" in pins
    pins = {name.split("[")[0]: version for name, version in pins.items()}
    # The packages it leaves out are real ones, and it keeps everything the tests import.
    assert oldest.NOT_RUN <= set(declared)
    assert pins == {name: v for name, v in floors.items() if name not in oldest.NOT_RUN}
    assert {"numpy", "pandas", "scipy", "matplotlib", "ipywidgets", "scikit-learn", "pytest",
            "nbval", "hypothesis", "pytrec-eval-terrier", "statsmodels", "mlxtend",
            "scikit-posthocs", "nbclient", "dask", "distributed"} == set(pins)


def test_dask_is_an_extra_that_dev_includes_and_never_a_runtime_dependency():
    project = _project()
    extras = project["optional-dependencies"]
    assert [_requirement(line)[0] for line in extras["dask"]] == ["dask", "distributed"]
    assert any(line.startswith("dask[dataframe]>=") for line in extras["dask"])
    assert set(extras["dask"]) <= set(extras["dev"])  # make test (CI) runs tests/test_dask.py
    assert not any(_requirement(line)[0] in ("dask", "distributed", "pyarrow")
                   for line in project["dependencies"])
    # The README's install notes name the extra.
    assert "evalkit[dask]" in (REPO / "README.md").read_text()


@pytest.mark.parametrize("line", ["numpy", "numpy>1.2", "numpy>=1.2,<3", "numpy==1.2",
                                  "numpy>=1.2; python_version<'3.12'"])
def test_oldest_rejects_a_requirement_without_a_plain_floor(tmp_path, line):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(f'[project]\ndependencies = ["{line}"]\n'
                         '[project.optional-dependencies]\ndev = []\n')
    with pytest.raises(ValueError, match=r"pyproject.toml: requirement .* no plain '>=' floor"):
        _oldest().floors(pyproject)


def test_oldest_rejects_two_floors_for_one_package(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\ndependencies = ["scikit_learn>=1.7"]\n'
                         '[project.optional-dependencies]\ndev = ["scikit-learn>=1.6"]\n')
    with pytest.raises(ValueError, match="scikit-learn has two floors, 1.7 and 1.6"):
        _oldest().floors(pyproject)


def test_oldest_pins_a_package_with_the_extras_it_is_asked_for_with(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\ndependencies = ["numpy>=2.0"]\n'
                         '[project.optional-dependencies]\n'
                         'dev = ["Dask[dataframe]>=2025.1.0"]\na = ["dask>=2025.1.0"]\n')
    oldest = _oldest()
    assert oldest.floors(pyproject) == {"numpy": "2.0", "dask": "2025.1.0"}
    assert oldest.pins(pyproject) == ["dask[dataframe]==2025.1.0", "numpy==2.0"]


def test_oldest_check_accepts_only_the_floors(monkeypatch):
    import importlib.metadata

    oldest = _oldest()
    installed = {name: version + ".0" for name, version in oldest.floors().items()}
    installed["scipy"] = "1.15.3"  # a patch release above the floor is not the floor
    del installed["nbval"]

    def version(name):
        if name not in installed:
            raise importlib.metadata.PackageNotFoundError(name)
        return installed[name]

    monkeypatch.setattr(importlib.metadata, "version", version)
    assert oldest.check() == [f"scipy 1.15.3 is installed, the floor is {oldest.floors()['scipy']}",
                              f"nbval is not installed (floor {oldest.floors()['nbval']})"]
    installed["scipy"], installed["nbval"] = oldest.floors()["scipy"], oldest.floors()["nbval"]
    assert oldest.check() == []
    assert oldest.main(["--check"]) == 0 and oldest.main(["--bogus"]) == 2


def test_make_test_oldest_runs_in_ci_after_make_test():
    ci = (REPO / ".ci" / "run").read_text()
    assert 0 < ci.index("make test\n") < ci.index("make test-oldest\n")
    makefile = (REPO / "Makefile").read_text()
    recipe = makefile.split("\ntest-oldest:", 1)[1].split("\n\n", 1)[0]
    assert "--nbval-lax" in recipe and "--doctest-modules" in recipe
    assert all(path in recipe for path in ("evalkit", "tests", "notebooks"))
    assert "tools/oldest.py" in makefile and "--only-binary=:all:" in makefile
    assert ".venv-oldest/" in (REPO / ".gitignore").read_text().split()


def test_python_version_is_stated_once_and_tested():
    # CI tests everything on the floor, 3.11 (make test-pythons: the hashing and ranking tests on
    # the other CPythons found): requires-python, ruff's target and environment.yml agree.
    tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python >= 3.11")
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert pyproject["project"]["requires-python"] == ">=3.11"
    assert pyproject["tool"]["ruff"]["target-version"] == "py311"
    assert re.search(r"^\s*- python>=3\.11\s*$", (REPO / "environment.yml").read_text(), re.M)
    assert sys.version_info[:2] >= (3, 11)


def test_maths_modules_do_not_import_matplotlib_or_ipywidgets():
    # Every module except the presentation layer: a new maths module is covered automatically.
    package = REPO / "evalkit"
    modules = sorted(p for p in package.rglob("*.py")
                     if p.relative_to(package).parts[0] not in ("plots", "widgets"))
    names = {p.relative_to(package).with_suffix("").as_posix() for p in modules}
    assert {"classification", "costs", "curves", "ranking", "trec/_measures",
            "stats/bootstrap"} <= names
    for path in modules:
        source = path.read_text()
        assert not re.search(r"^\s*(import|from)\s+(matplotlib|ipywidgets)", source, re.M), path


#: Public functions added to the top level since shared/API.md was last written (the contract
#: allows additions; the developers cannot edit it). Each is proposed for the contract: drop
#: a name here once API.md lists it. Any other name outside the contract fails the test.
PROPOSED_ADDITIONS = {
    "probability_threshold",  # costs: Elkan's p* (notebooks 10, 13)
    "simulate_test_accuracies",  # stats: accuracies of many simulated test sets (00, 01)
    "interval_coverage",  # stats: exact coverage of an interval method (00)
    "long_tailed_support",  # datasets: Zipf class sizes (08, 09)
    "long_tailed_labels",  # datasets: simulated labels on them (09)
    "binormal_test_set",  # curves: a binormal scorer's test set at any balance (12)
    "labels_from_table",  # agreement: two judges' labels from their agreement table (14)
    "temperature_scale",  # probabilistic: temperature scaling of probabilities (18-20)
    "t_test_power",  # stats: power of a paired or two-group t test (22, 25)
    "equal_variance_test",  # stats: F, Bartlett and Levene tests for two samples (23, 24)
    "available_sample",  # stats: the estimation study's samples (21)
    "simulate_estimates",  # stats: holdout/k-fold/LOO estimates on many samples (21)
    "estimation_summary",  # stats: their bias, SD and RMSE (21)
    "bootstrap_632",  # stats: out-of-bag, .632 and .632+ bootstrap accuracy (21; its study)
    "kappa_terms",  # agreement: P(a), P(e) and the marginals behind kappa (14; KappaExplorer)
    "proportion_se",  # stats: sqrt(p(1-p)/n) (00; TestSetExplorer)
    "simulate_paired_t_tests",  # stats: observed d_z and p of many paired t tests (22; Power)
    "binormal_auc",  # curves: the binormal scorer's population AUC (12; ROCExplorer)
    "eleven_point_average",  # ranking: 11-point interpolated AP (04; InterpolationExplorer)
    "five_by_two_cv_differences",  # stats: 5x2cv differences of two sklearn estimators (30)
    "resampled_class_scores",  # stats: per-class P/R/F1, cP/cR/cF1 on weighted resamples (25, 26)
    "adjust_pvalues",  # stats: Holm / Bonferroni adjusted p-values of any tests (23, 27)
    "trec_ranking",  # trec: a run's documents in trec_eval's order with their grades (04, 05, 07)
    "pool",  # trec: the pool of runs to a depth (29; IncompleteJudgementsExplorer)
    "sample_qrels",  # trec: a random share of each query's judgements kept (29)
    "normalized_expected_cost",  # costs: Drummond & Holte's NEC lines of a cost curve (13)
}


def test_top_level_exports_only_names_from_the_api_contract():
    if not API_MD.is_file():
        pytest.skip(f"{API_MD} not found (shared/ is not beside the repository)")
    contract = set(re.findall(r"`([a-z_][a-z0-9_]*)\(", API_MD.read_text()))
    assert set(evalkit.__all__) - contract == PROPOSED_ADDITIONS - contract
    assert PROPOSED_ADDITIONS <= set(evalkit.__all__)
    for name in evalkit.__all__:
        assert callable(getattr(evalkit, name))


def test_every_public_function_has_a_numpydoc_docstring_with_examples():
    helpers = {"check"}  # the notebooks' exercise checker: no formula, no literature
    for name in evalkit.__all__:
        doc = getattr(evalkit, name).__doc__ or ""
        needed = ("Parameters", "Returns", "Examples") if name in helpers else (
            "Parameters", "Returns", "References", "Examples")
        for section in needed:
            assert f"\n    {section}\n    ---" in doc, f"{name} lacks a {section} section"
        assert name in helpers or "math::" in doc, f"{name} lacks its formula"
        assert ">>> " in doc, f"{name} lacks a doctest"
        sections = re.findall(r"\n    (\w+(?: \w+)?)\n    -{3,}", doc)
        canonical = ("Parameters", "Returns", "Raises", "See Also", "Notes", "References",
                     "Examples")
        assert sections == [s for s in canonical if s in sections], (
            f"{name}: sections out of numpydoc order {sections}")


# ---------------------------------------------------------------------------------------------
# Notebooks: committed executed, shaped as shared/NOTEBOOKS.md says
# ---------------------------------------------------------------------------------------------


def _code_cells(path: Path) -> list[dict]:
    nb = json.loads(path.read_text())
    return [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 2


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_named_and_listed_in_the_readme(path):
    assert re.fullmatch(r"\d\d-[a-z0-9]+(-[a-z0-9]+)*\.ipynb", path.name)
    assert path.name in (REPO / "README.md").read_text()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_was_executed_top_to_bottom_in_a_fresh_kernel(path):
    # nbval only compares cells that have stored outputs, so an unexecuted notebook would pass.
    cells = _code_cells(path)
    counts = [c.get("execution_count") for c in cells]
    assert counts == list(range(1, len(cells) + 1)), f"execution counts {counts}"
    for cell in cells:
        tags = cell.get("metadata", {}).get("tags", [])
        for output in cell.get("outputs", []):
            if output["output_type"] == "error":
                assert "raises-exception" in tags, f"stored error {output.get('ename')}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_has_exercises_with_solutions_and_checks(path):
    cells = _code_cells(path)
    solutions = [c for c in cells if "solution" in c.get("metadata", {}).get("tags", [])]
    assert 2 <= len(solutions) <= 5, f"{len(solutions)} solution cells"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_widget_cells_carry_the_nbval_ignore_output_tag(path):
    # A widget view has no stable text; the tag keeps nbval off it without a comment the
    # reader has to look past.
    for cell in _code_cells(path):
        source = "".join(cell["source"])
        tags = cell.get("metadata", {}).get("tags", [])
        assert "NBVAL_IGNORE_OUTPUT" not in source, f"use the cell tag, not a comment:\n{source}"
        shows_explorer = (re.search(r"Explorer\(", source)
                          or re.search(r"^\s*\w*[Ee]xplorer\s*$", source, re.M))
        if shows_explorer:
            assert "nbval-ignore-output" in tags, f"widget cell without the tag:\n{source}"


MAX_CELLS = 40  # NOTEBOOKS.md: one idea in at most about 40 cells


def _markdown(path: Path) -> list[str]:
    nb = json.loads(path.read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_short_and_says_what_it_needs(path):
    # The part's closing assignment (cells tagged "assignment") is work for after the part.
    cells = [cell for cell in json.loads(path.read_text())["cells"]
             if "assignment" not in cell.get("metadata", {}).get("tags", [])]
    assert len(cells) <= MAX_CELLS, f"{len(cells)} cells; split the notebook"
    header = _markdown(path)[0]
    match = re.search(r"^\*Prerequisites: (.+?) · about (\d+) minutes \(reading and running "
                      r"(\d+), exercises and explorer (\d+)\)\*$", header, re.M)
    assert match, ("the first cell needs a line '*Prerequisites: … · about N minutes (reading "
                   "and running R, exercises and explorer W)*'")
    # How many minutes, and whether the reading model agrees, is tests/test_course.py's job.
    total, read, work = (int(match.group(i)) for i in (2, 3, 4))
    assert 5 <= total <= 75, "one notebook is 75 minutes at most"
    assert read + work == total, "the two parts add up to the total"
    for number in re.findall(r"\b\d\d\b", match.group(1)):
        assert number < path.name[:2], f"prerequisite {number} comes after this notebook"
        assert list((REPO / "notebooks").glob(f"{number}-*.ipynb")), f"no notebook {number}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_has_questions_with_folded_answers(path):
    quiz = [text for text in _markdown(path) if "Check your understanding" in text]
    assert quiz, "no 'Check your understanding' section"
    section = quiz[0].split("Check your understanding", 1)[1].split("\n## ", 1)[0]
    answers = section.count("<details><summary>Answer</summary>")
    assert 2 <= answers <= 4 and section.count("</details>") == answers, section


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_exercise_is_checked_with_ek_check(path):
    cells = _code_cells(path)
    sources = ["".join(c["source"]) for c in cells]
    assert not any("globals().get(" in s for s in sources), "use ek.check, not globals().get"
    for index, cell in enumerate(cells):
        if "solution" not in cell.get("metadata", {}).get("tags", []):
            continue
        follow = sources[index + 1] if index + 1 < len(sources) else ""
        assert "ek.check(" in follow, f"the cell after solution cell {index} has no ek.check"
        # nbformat stores a stream's text as a string or as a list of lines (nbconvert: a list).
        printed = "".join("".join(o.get("text", "")) for o in cells[index + 1].get("outputs", []))
        marks = [line for line in printed.splitlines() if line[:1] in "✓✗…"]
        assert marks and all(line.startswith("✓") for line in marks), (
            f"with the solutions in, the check says {printed!r}")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_checks_its_hand_computations_against_evalkit(path):
    sources = "\n".join("".join(c["source"]) for c in _code_cells(path))
    assert "import evalkit as ek" in sources
    assert re.search(r"assert np\.isclose\(", sources)


def test_plots_and_widgets_load_on_first_use():
    import subprocess
    import sys

    code = ("import sys, evalkit as ek; assert 'matplotlib.pyplot' not in sys.modules; "
            "assert 'ipywidgets' not in sys.modules; "
            "print(ek.plots.plot_f_beta.__name__, ek.widgets.ContingencyExplorer.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["plot_f_beta", "ContingencyExplorer"]
    with pytest.raises(AttributeError, match="has no attribute 'plotz'"):
        evalkit.plotz  # noqa: B018


def test_import_evalkit_leaves_scipy_matplotlib_and_ipywidgets_for_first_use():
    # `evalkit trec_eval` pays the import on every call: scipy.stats alone takes longer than
    # numpy and pandas together (benchmarks/bench_import.py measures the whole process).
    code = ("import sys, evalkit as ek\n"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'scipy', 'matplotlib', 'ipywidgets', 'sklearn', 'statsmodels'})\n"
            "print(heavy)\n"
            "ek.proportion_ci(3, 10)\n"
            "print(any(m.startswith('scipy.') for m in sys.modules))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.splitlines() == ["[]", "True"]


# The wheel: every subpackage found, the course data shipped, a version that says what it is.
# (tests/test_wheel_install.py builds the wheel and sdist and runs them in a clean venv.)


def _setup_py():
    return load_script(REPO / "setup.py", "evalkit_setup")  # setup() is not run


def test_every_folder_of_evalkit_with_python_files_is_a_discovered_package():
    discovered = set(_setup_py().packages())
    folders = {path.parent for path in (REPO / "evalkit").rglob("*.py")
               if "__pycache__" not in path.parts}
    expected = {".".join(folder.relative_to(REPO).parts) for folder in folders}
    assert {"evalkit", "evalkit.stats", "evalkit.plots", "evalkit.widgets"} <= expected
    assert expected <= discovered, f"not in the wheel: {sorted(expected - discovered)}"
    assert discovered <= expected


def test_packages_are_found_not_listed_by_hand():
    tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python >= 3.11")
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "packages" not in config.get("tool", {}).get("setuptools", {}), (
        "setup.py finds the packages; a hand list in pyproject.toml would override it")


def test_the_shipped_data_are_what_the_notebooks_and_docs_read():
    setup_py = _setup_py()
    data = REPO / setup_py.DATA_FOLDER
    shipped = {path for pattern in setup_py.DATA_FILES for path in data.glob(pattern)}
    assert data / "README.md" in shipped  # evalkit.datasets recognises the folder by it
    texts = [path.read_text() for path in [*NOTEBOOKS, *(REPO / "docs").rglob("*.md")]]
    calls = {match for text in texts for match in re.findall(
        r"data_path\(((?:\\?\"[^\"\\]+\\?\",?\s*)+)\)", text)}
    read = {data.joinpath(*re.findall(r"\\?\"([^\"\\]+)\\?\"", call)) for call in calls}
    read = {path for path in read if path.is_file()}
    assert len(read) >= 8, sorted(read)
    collection = data / "stdlib-docs"
    read |= {collection / "docs.jsonl", collection / "topics.tsv", collection / "qrels.txt",
             *(collection / "runs").glob("*.run")}  # what load_collection reads
    assert read <= shipped, f"read but not shipped: {sorted(map(str, read - shipped))}"
    assert not any(path.suffix == ".py" for path in shipped)  # the build scripts stay home


def test_importable_data_folders_are_declared_packages_that_ship_no_module():
    # Else setuptools warns, on every pip install, that evalkit._data.estimation is absent
    # from the packages; declared, its build script must still stay home (BuildPy).
    setup_py = _setup_py()
    declared = setup_py.data_packages()
    assert declared[0] == "evalkit._data" and "evalkit._data.estimation" in declared
    assert not any("course-notes" in name or "__pycache__" in name for name in declared)
    assert (REPO / "data" / "estimation" / "make_estimates.py").is_file()
    from setuptools.dist import Distribution

    distribution = Distribution({"packages": declared})
    distribution.script_name = str(REPO / "setup.py")
    build = setup_py.BuildPy(distribution)
    build.ensure_finalized()
    assert build.find_package_modules(declared[1], str(REPO / "data" / "estimation")) == []
    modules = build.find_package_modules("evalkit.stats", str(REPO / "evalkit" / "stats"))
    assert {"__init__", "bootstrap"} <= {module for _, module, _ in modules}


def test_the_course_notebooks_and_their_digests_are_shipped():
    setup_py = _setup_py()
    folder = REPO / setup_py.NOTEBOOK_FOLDER
    shipped = {path for pattern in setup_py.NOTEBOOK_FILES for path in folder.glob(pattern)}
    assert set(NOTEBOOKS) <= shipped
    assert {folder / "answer-digests.json", folder / "course.toml"} <= shipped


def test_version_comes_from_the_installed_distribution():
    from importlib import metadata

    assert evalkit.__version__ == metadata.version("evalkit") == _project()["version"]


def test_version_of_a_source_tree_that_is_not_installed(monkeypatch, tmp_path):
    from importlib import metadata

    from evalkit import _version

    def not_installed(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(_version.metadata, "version", not_installed)
    assert _version.find_version() == _project()["version"]
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[build-system]\nrequires = []\n\n[project]\nname = "evalkit"\n'
                         'version = "9.8.7rc1"\n\n[tool.x]\nversion = "1"\n')
    assert _version._source_tree_version(pyproject) == "9.8.7rc1"
    pyproject.write_text('[project]\nname = "other"\nversion = "1.0"\n')
    assert _version._source_tree_version(pyproject) == _version.UNKNOWN
    assert _version._source_tree_version(tmp_path / "missing.toml") == _version.UNKNOWN


_NOTEBOOK_EXTRA_PROVIDES = {"sklearn": "scikit-learn", "threadpoolctl": "scikit-learn"}
_RUNTIME_PROVIDES = {"numpy": "numpy", "pandas": "pandas", "scipy": "scipy",
                     "matplotlib": "matplotlib", "ipywidgets": "ipywidgets", "evalkit": "evalkit"}


def test_the_notebooks_extra_is_enough_to_run_every_notebook():
    import ast

    project = _project()
    installed = {_requirement(line)[0] for line in
                 [*project["dependencies"], *project["optional-dependencies"]["notebooks"]]}
    installed |= {"evalkit"}
    assert "jupyterlab" in installed  # brings the kernel (ipykernel) and nbclient
    missing = {}
    for path in NOTEBOOKS:
        cells = json.loads(path.read_text())["cells"]
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            tree = ast.parse("\n".join(line for line in source.splitlines()
                                       if not line.lstrip().startswith(("%", "!"))))
            for node in ast.walk(tree):
                names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                         else [node.module] if isinstance(node, ast.ImportFrom)
                         and node.level == 0 else [])
                for name in names:
                    top = name.split(".")[0]
                    if top in sys.stdlib_module_names:
                        continue
                    needs = _RUNTIME_PROVIDES.get(top) or _NOTEBOOK_EXTRA_PROVIDES.get(top, top)
                    if needs not in installed:
                        missing.setdefault(top, []).append(path.name)
    assert not missing, f"imported by notebooks but not in evalkit[notebooks]: {missing}"
