"""The course map: ``notebooks/course.toml`` says which notebooks there are, in what order,
what each needs and teaches, and how long it takes. Everything else is made from it or
checked against it.

    python tools/course.py minutes            # each notebook's minutes by the reading model
    python tools/course.py minutes --update   # ... and set the map's minutes to them
    python tools/course.py check              # every rule of the map (exit 1 and a list)
    python tools/course.py write              # headers, the README's course map, the picture

The reading model (``[reading_model]`` in the map, stated once): reading and running takes
prose words / 150 + non-comment code lines / 6 + 1 per quiz question minutes, exercises and
the explorer 8 per exercise + 2 per explorer try (a numbered item under "Things to try"); a
part's closing assignment is counted as words read (doing it is the hours its brief states).
``write`` puts each notebook's prerequisites and minutes (the total and its two parts) into its
header line, the course table and suggested paths into README.md (between
``<!-- course-map -->`` markers), draws ``docs/course-map.svg`` and writes the Timing lines of
each notebook's instructor notes and their index table (``docs/instructor``, tools/instructor.py);
``check`` (run by tests/test_course.py) fails when any of them is stale, a concept is used
before it is taught, a notebook has no instructor notes, or a notebook runs over the cap.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import accessibility  # noqa: E402  (tools/ is a folder of scripts, not a package)
import instructor  # noqa: E402  tools/instructor.py: the lecturer's kit, made from the map

REPO = Path(__file__).resolve().parent.parent
MAP = REPO / "notebooks" / "course.toml"
README = REPO / "README.md"
PICTURE = REPO / "docs" / "course-map.svg"
START, END = "<!-- course-map -->", "<!-- /course-map -->"
# The header line, and an older one without the two parts that ``write`` replaces.
HEADER = re.compile(r"^\*Prerequisites: .*? · about \d+ minutes"
                    r"(?: \(reading and running \d+, exercises and explorer \d+\))?\*$", re.M)
PATH_KINDS = ("lecture", "lab")
#: ``check`` also demands that the notebooks carry alt-text.toml's texts (written by
#: ``write``): a text edited in the toml but not yet written fails.
ALT_TEXT_APPLIED = True
COUNTS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4}


# ---------------------------------------------------------------------------------------------
# Reading the map and the notebooks


@dataclass
class Notebook:
    number: str
    file: str
    title: str
    question: str
    minutes: int
    reading_minutes: int
    part: str
    needs: list[str] = field(default_factory=list)
    introduces: list[str] = field(default_factory=list)
    uses: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    formerly: list[str] = field(default_factory=list)

    @property
    def stem(self) -> str:
        return self.file.removesuffix(".ipynb")

    @property
    def work_minutes(self) -> int:
        """Exercises and explorer: the total less reading and running."""
        return self.minutes - self.reading_minutes


@dataclass
class Course:
    model: dict[str, float]
    notebooks: dict[str, Notebook]
    parts: list[dict[str, Any]]
    concepts: dict[str, dict[str, Any]]
    paths: list[dict[str, Any]]
    notebooks_dir: Path
    alt_texts: dict[str, dict[str, str]] = field(default_factory=dict)

    def home(self, concept: str) -> list[str]:
        return [n for n, nb in self.notebooks.items() if concept in nb.introduces]

    def reachable(self, number: str) -> set[str]:
        """The notebooks that ``number`` needs, followed back through their own needs."""
        seen: set[str] = set()
        stack = list(self.notebooks[number].needs)
        while stack:
            current = stack.pop()
            if current in seen or current not in self.notebooks:
                continue
            seen.add(current)
            stack.extend(self.notebooks[current].needs)
        return seen


def load(path: Path = MAP, notebooks_dir: Path | None = None) -> Course:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    part_of = {number: part["name"] for part in data.get("part", [])
               for number in part["notebooks"]}
    notebooks = {}
    for entry in data["notebook"]:
        number = entry["file"][:2]
        notebooks[number] = Notebook(
            number=number, part=part_of.get(number, ""),
            **{key: entry[key] for key in entry if key in Notebook.__dataclass_fields__})
    return Course(model=data["reading_model"], notebooks=notebooks,
                  parts=data.get("part", []), concepts=data.get("concept", {}),
                  paths=data.get("path", []),
                  notebooks_dir=notebooks_dir or path.parent,
                  alt_texts=accessibility.load((notebooks_dir or path.parent) / "alt-text.toml"))


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _code_lines(cell: dict) -> list[str]:
    stripped = (re.sub(r"#.*$", "", line).strip() for line in _source(cell).splitlines())
    return [line for line in stripped if line]


ASSIGNMENT_TAG = "assignment"  # the cells of a part's open-ended assignment
ANSWER_TAG = "assignment-answer"  # its answer cell, which the grader collects
RUBRIC_ROW = re.compile(r"^\|(.*)\|\s*(\d+)\s*\|\s*$")  # a rubric row: ... | points |
TRIES_HEADING = re.compile(r"^\s*(?:#+\s*)?(?:\*\*|__)?Things to try\b", re.I)
LIST_ITEM = re.compile(r"^(?:\d+[.)]|[-*+])\s")


def tries(text: str) -> int:
    """The explorer's tries in one markdown cell: the items of the list that follows a line
    headed "Things to try" (numbered, as NOTEBOOKS.md asks; a bulleted list counts the same).
    Only top-level items count; indented lines continue an item, and the list ends at the
    first line that is neither (or at the next "Things to try", which starts a list anew)."""
    count, inside, started = 0, False, False
    for line in text.splitlines():
        if TRIES_HEADING.match(line):
            inside, started = True, False
            continue
        if not inside or not line.strip():
            continue
        if LIST_ITEM.match(line):
            count, started = count + 1, True
        elif not (started and line[:1].isspace()):
            inside = False
    return count


@dataclass
class Reading:
    words: int
    code_lines: int
    exercises: int
    questions: int
    tries: int
    reading: float  # reading and running: words, code lines, quiz questions
    work: float  # exercises and explorer: exercises, tries

    @property
    def minutes(self) -> float:
        return self.reading + self.work


def reading(cells: list[dict], model: dict[str, float]) -> Reading:
    """A notebook's size and its minutes by the reading model, in its two parts. A part's
    open-ended assignment (cells tagged ``assignment``) is counted as reading: its brief and
    rubric are read in the notebook; doing it is work for after the part, and it says how
    long that takes."""
    markdown = [_source(c) for c in cells if c["cell_type"] == "markdown"]
    words = sum(len(re.findall(r"[A-Za-z0-9][\w'’.-]*", text)) for text in markdown)
    lines = sum(len(_code_lines(c)) for c in cells if c["cell_type"] == "code")
    exercises = sum("solution" in c.get("metadata", {}).get("tags", []) for c in cells)
    questions = sum(text.count("<details") for text in markdown)
    n_tries = sum(tries(text) for text in markdown)
    read = (words / model["words_per_minute"] + lines / model["code_lines_per_minute"]
            + questions * model["minutes_per_question"])
    work = exercises * model["minutes_per_exercise"] + n_tries * model["minutes_per_try"]
    return Reading(words, lines, exercises, questions, n_tries, read, work)


def _cells(course: Course, number: str) -> list[dict]:
    path = course.notebooks_dir / course.notebooks[number].file
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


# ---------------------------------------------------------------------------------------------
# What the map makes: header lines, the README's course map, the picture


def _numbers(numbers: list[str]) -> str:
    if len(numbers) == 1:
        return numbers[0]
    return ", ".join(numbers[:-1]) + " and " + numbers[-1]


def header_line(notebook: Notebook) -> str:
    needs = "none" if not notebook.needs else (
        ("notebook " if len(notebook.needs) == 1 else "notebooks ") + _numbers(notebook.needs))
    return (f"*Prerequisites: {needs} · about {notebook.minutes} minutes (reading and running "
            f"{notebook.reading_minutes}, exercises and explorer {notebook.work_minutes})*")


def _duration(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    if not hours:
        return f"{rest} minutes"
    return f"{hours} h {rest:02d} min" if rest else f"{hours} h"


def path_closure(course: Course, path: dict[str, Any]) -> list[str]:
    """The notebooks a path asks of its reader that it does not contain: every notebook
    reachable through ``needs`` that is neither in the path (earlier) nor assumed."""
    missing = []
    done = set(path.get("assumes", []))
    for number in path["notebooks"]:
        for need in sorted(course.reachable(number)):
            if need not in done and need not in missing:
                missing.append(f"{number} needs {need}")
        done.add(number)
    return missing


def path_minutes(course: Course, path: dict[str, Any]) -> list[int]:
    """Each notebook's minutes as a path plans them: reading and running for a lecture, the
    whole (with exercises and explorer) for a lab."""
    lecture = path.get("kind") == "lecture"
    return [course.notebooks[n].reading_minutes if lecture else course.notebooks[n].minutes
            for n in path["notebooks"]]


def readme_map(course: Course) -> str:
    total = sum(nb.minutes for nb in course.notebooks.values())
    model = course.model
    lines = [
        "## The course",
        "",
        f"{len(course.notebooks)} notebooks in {len(course.parts)} parts, "
        f"{_duration(total)} in all by the reading model below. Each starts with what you will "
        "learn and what to read first, works an example by hand and checks it against evalkit, "
        "has an explorer to move, and ends with questions to check your understanding (answers "
        "folded), exercises that check themselves (`ek.check`), a summary and references. "
        "\"Sources\" are the course materials and papers whose worked examples the notebook "
        "recomputes (and corrects where they are wrong).",
        "",
        "![The course map: a row per part, a box per notebook with its minutes, an arrow from "
        "a notebook to each one that needs it directly (needs that follow from other arrows "
        "are left implied).](docs/course-map.svg)",
        "",
        "**Minutes** are a student's time doing the work, by one reading model in two parts: "
        f"*reading and running* takes prose words / {model['words_per_minute']:g} + code "
        f"lines / {model['code_lines_per_minute']:g} + {model['minutes_per_question']:g} per "
        f"quiz question, *exercises and explorer* {model['minutes_per_exercise']:g} per "
        f"exercise + {model['minutes_per_try']:g} per explorer try (an item of its numbered "
        "\"Things to try\"). A part's closing assignment counts as words read; doing it takes "
        "the hours its brief states, beyond these minutes. The table gives the total, each "
        "notebook's header both parts; a notebook takes "
        f"at most {model['max_minutes']:g} minutes in all. The map, "
        "[`notebooks/course.toml`](notebooks/course.toml), is the one source of this table, "
        "the headers and the picture; `python tools/course.py check` (part of `make test`) "
        "holds them to it.",
        "",
    ]
    for part in course.parts:
        lines += [f"**{part['name']}**", "",
                  "| notebook | what it answers | min | needs | sources |",
                  "|---|---|---|---|---|"]
        for number in part["notebooks"]:
            nb = course.notebooks[number]
            needs = ", ".join(nb.needs) if nb.needs else "—"
            lines.append(f"| [`{nb.stem}`](notebooks/{nb.file}) | {nb.question} | "
                         f"{nb.minutes} | {needs} | {'; '.join(nb.sources)} |")
        lines.append("")
    lines += ["**Suggested paths** (each includes, or says it assumes, every notebook its "
              "notebooks need). A lecture path counts reading-and-running time (the exercises "
              "and the explorer's tries are left for afterwards), a lab path the whole.", ""]
    for path in course.paths:
        minutes = path_minutes(course, path)
        sequence = " → ".join(path["notebooks"])
        assumes = (f", after {_numbers(path['assumes'])}" if path.get("assumes") else "")
        counted = ("reading and running" if path.get("kind") == "lecture"
                   else "with exercises and explorer")
        lines.append(f"- **{path['name']}**{assumes}: {sequence} "
                     f"({' + '.join(map(str, minutes))} = {_duration(sum(minutes))}, "
                     f"{counted}). {path['text'].strip()}")
    lines.append("")
    return "\n".join(lines)


def drawn_needs(course: Course) -> set[tuple[str, str]]:
    """The needs the picture draws: each direct need that no other need already implies (the
    transitive reduction), so the picture shows what a path requires without a tangle."""
    edges = set()
    for number, nb in course.notebooks.items():
        for need in nb.needs:
            through_another = any(need in course.reachable(other)
                                  for other in nb.needs if other != need)
            if not through_another:
                edges.add((need, number))
    return edges


#: The picture's columns and type. The landing page shows it at the width of its text column,
#: 672 px at a 1280 px window, so a picture 806 pt wide is scaled by 0.83 there, and type of
#: 20 pt is shown at 16.7 px: the page's body size (16 px) or more. tests/browser measures it.
MAP_COLUMNS, MAP_FONT_PT = 3, 20
#: Okabe & Ito's colour-blind-safe colours, one per part (the part is also written above its
#: row, so colour is never the only key).
MAP_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000")


def site_page(nb: Notebook) -> str:
    """The notebook's page on the course site, relative to the landing page."""
    return f"notebooks/{nb.stem}.html"


def draw_map(course: Course, target: Path = PICTURE) -> None:
    """The course as a picture: a heading and rows of boxes per part, a box per notebook
    (a link to its page on the site), an arrow per need."""
    import textwrap

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    plt.rcParams["svg.hashsalt"] = "evalkit-course-map"
    plt.rcParams["svg.fonttype"] = "none"  # text stays text: searchable, smaller
    font = MAP_FONT_PT
    box_w, gap_x, gap_y, head_h = 3.4, 0.25, 0.42, 0.55
    wrap = 21  # characters per line of a title at this size and box width
    titles = {number: textwrap.wrap(textwrap.shorten(nb.title.split(":")[0], 60,
                                                     placeholder="…"), wrap)
              for number, nb in course.notebooks.items()}
    line_h = font * 1.25 / 72
    box_h = line_h * (1 + max(len(t) for t in titles.values())) + 0.35
    fig_w = MAP_COLUMNS * (box_w + gap_x) + gap_x
    rows = [(part, part["notebooks"][i:i + MAP_COLUMNS]) for part in course.parts
            for i in range(0, len(part["notebooks"]), MAP_COLUMNS)]
    fig_h = len(course.parts) * head_h + len(rows) * (box_h + gap_y) + 0.1
    fig, ax = plt.subplots(figsize=(fig_w, fig_h))
    fig.subplots_adjust(0, 0, 1, 1)
    ax.set_xlim(0, fig_w)
    ax.set_ylim(0, fig_h)
    ax.axis("off")
    centre: dict[str, tuple[float, float]] = {}
    top = fig_h - 0.05
    seen_parts: list[str] = []
    for part, numbers in rows:
        if part["name"] not in seen_parts:
            seen_parts.append(part["name"])
            ax.text(gap_x, top - head_h / 2, part["name"], ha="left", va="center",
                    fontsize=font, fontweight="bold", gid=f"part-{len(seen_parts)}")
            top -= head_h
        colour = MAP_COLOURS[(len(seen_parts) - 1) % len(MAP_COLOURS)]
        y = top - box_h / 2
        for column, number in enumerate(numbers):
            x = gap_x + column * (box_w + gap_x) + box_w / 2
            centre[number] = (x, y)
            nb = course.notebooks[number]
            url = site_page(nb)
            box = FancyBboxPatch((x - box_w / 2, y - box_h / 2), box_w, box_h,
                                 boxstyle="round,pad=0.02,rounding_size=0.08",
                                 facecolor="white", edgecolor=colour, linewidth=2.4,
                                 zorder=2, gid=f"notebook-{number}")
            box.set_url(url)
            ax.add_patch(box)
            first = y + box_h / 2 - 0.15 - line_h / 2
            label = ax.text(x, first, f"{number} · {nb.minutes} min", ha="center",
                            va="center", fontsize=font, fontweight="bold", zorder=3,
                            gid=f"notebook-{number}-minutes")
            label.set_url(url)
            title = ax.text(x, first - 0.6 * line_h, "\n".join(titles[number]), ha="center",
                            va="top", fontsize=font, linespacing=1.25, zorder=3,
                            gid=f"notebook-{number}-title")
            title.set_url(url)
        top -= box_h + gap_y
    for need, number in sorted(drawn_needs(course)):
        (x0, y0), (x1, y1) = centre[need], centre[number]
        if abs(y0 - y1) < 1e-9:  # same row: side to side, bowed when it jumps a box
            start, end = (x0 + box_w / 2, y0), (x1 - box_w / 2, y1)
            bend = 0.0 if x1 - x0 < box_w + gap_x + 1e-9 else -0.25
        else:
            start, end = (x0, y0 - box_h / 2), (x1, y1 + box_h / 2)
            bend = 0.1 if x0 != x1 else 0.0
        ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=14,
                                     connectionstyle=f"arc3,rad={bend}", linewidth=1.0,
                                     color="0.35", alpha=0.6, zorder=1,
                                     gid=f"needs-{need}-{number}"))
    fig.savefig(target, format="svg", metadata={"Date": None})
    plt.close(fig)
    accessibility.link_boxes(target, {number: (site_page(nb), f"{number}: {nb.title} "
                                                         f"({nb.minutes} minutes)")
                                      for number, nb in course.notebooks.items()})


def write(course: Course, *, readme: Path = README, picture: Path | None = PICTURE,
          kit: Path | None = None) -> list[str]:
    """Bring the headers, the README's course map, the picture and the instructor notes' timing
    (``kit``, by default the ``docs/instructor`` beside the course's notebooks) in line with the
    map."""
    changed = instructor.write(course, kit or instructor.directory(course))
    for nb in course.notebooks.values():
        path = course.notebooks_dir / nb.file
        text = path.read_text(encoding="utf-8")
        notebook = json.loads(text)
        first = notebook["cells"][0]
        source = _source(first)
        new = HEADER.sub(header_line(nb), source) if HEADER.search(source) else source
        if new != source:
            first["source"] = new.splitlines(keepends=True)
        if accessibility.apply(notebook, course.alt_texts.get(nb.file, {})) or new != source:
            path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
            changed.append(nb.file)
    text = readme.read_text(encoding="utf-8")
    before, rest = text.split(START, 1)
    after = rest.split(END, 1)[1]
    new = f"{before}{START}\n{readme_map(course)}{END}{after}"
    if new != text:
        readme.write_text(new, encoding="utf-8")
        changed.append(readme.name)
    if picture is not None:
        draw_map(course, picture)
        changed.append(picture.name)
    return changed


# ---------------------------------------------------------------------------------------------
# The rules


def _order_problems(course: Course) -> list[str]:
    problems = []
    numbers = list(course.notebooks)
    on_disk = sorted(p.name for p in course.notebooks_dir.glob("[0-9][0-9]-*.ipynb"))
    listed = sorted(nb.file for nb in course.notebooks.values())
    if on_disk != listed:
        problems.append(f"the map lists {sorted(set(listed) - set(on_disk))} that are not in "
                        f"notebooks/, and notebooks/ has {sorted(set(on_disk) - set(listed))} "
                        "that the map lacks")
    if numbers != sorted(numbers):
        problems.append(f"the map lists the notebooks out of order: {numbers}")
    in_parts = [n for part in course.parts for n in part["notebooks"]]
    if sorted(in_parts) != sorted(numbers) or len(set(in_parts)) != len(in_parts):
        problems.append("every notebook must be in exactly one part")
    for number, nb in course.notebooks.items():
        for need in nb.needs:
            if need not in course.notebooks:
                problems.append(f"{number} needs {need}, which is not in the course")
            elif need >= number:
                problems.append(f"{number} needs {need}, which does not come before it")
    # A cycle is impossible when every need comes earlier; say so plainly when one does not.
    state: dict[str, int] = {}

    def visit(number: str, trail: list[str]) -> None:
        state[number] = 1
        for need in course.notebooks[number].needs:
            if need not in course.notebooks:
                continue
            if state.get(need) == 1:
                problems.append("needs has a cycle: " + " -> ".join(trail + [number, need]))
            elif need not in state:
                visit(need, trail + [number])
        state[number] = 2

    for number in numbers:
        if number not in state:
            visit(number, [])
    return problems


def _concept_problems(course: Course) -> list[str]:
    problems = []
    declared = set(course.concepts)
    for number, nb in course.notebooks.items():
        for concept in nb.introduces + nb.uses:
            if concept not in declared:
                problems.append(f"{number} names the concept {concept!r}, which the map's "
                                "[concept] table does not define")
    for concept in sorted(declared):
        homes = course.home(concept)
        if len(homes) != 1:
            problems.append(f"concept {concept!r} must have exactly one home; introduced in "
                            f"{homes or 'no notebook'}")
    for number, nb in course.notebooks.items():
        reach = course.reachable(number)
        for concept in nb.uses:
            homes = course.home(concept)
            if homes and homes[0] != number and homes[0] not in reach:
                problems.append(f"{number} uses {concept!r}, taught in {homes[0]}, which is not "
                                f"among its prerequisites (followed back: "
                                f"{sorted(reach) or 'none'})")
            if homes and homes[0] == number:
                problems.append(f"{number} lists {concept!r} as both introduced and used")
    return problems


def _first_match(cells: list[dict], patterns: list[str], kind: str, flags: int = 0) -> int | None:
    for index, cell in enumerate(cells):
        if cell["cell_type"] != kind:
            continue
        text = ("\n".join(_code_lines(cell)) if kind == "code" else _source(cell))
        if any(re.search(pattern, text, flags) for pattern in patterns):
            return index
    return None


def _usage_problems(course: Course) -> list[str]:
    """Concepts with ``code`` patterns are found in the notebooks' code: a notebook that calls
    one must list it (introduces or uses), and its home must name it in prose first."""
    problems = []
    for number, nb in course.notebooks.items():
        cells = _cells(course, number)
        for concept, spec in course.concepts.items():
            patterns = spec.get("code", [])
            if not patterns:
                continue
            first_code = _first_match(cells, patterns, "code")
            if first_code is None:
                continue
            if concept not in nb.introduces + nb.uses:
                problems.append(f"{number} calls {concept!r} in cell {first_code} but the map "
                                "lists it in neither introduces nor uses")
            if concept in nb.introduces:
                first_prose = _first_match(cells, [spec["term"]], "markdown", re.IGNORECASE)
                if first_prose is None or first_prose > first_code:
                    problems.append(f"{number} is the home of {concept!r} but uses it in cell "
                                    f"{first_code} before any markdown cell names it "
                                    f"(/{spec['term']}/)")
    return problems


MODEL_CALL = re.compile(r"\b\w+Model\(")
HANDED_TO_EXPLORER = re.compile(r"\b\w+Explorer\(\s*(?:\w+\.)*\w+Model\(")


def _explorer_problems(course: Course) -> list[str]:
    """Every notebook shows an explorer, and builds an explorer's model only to hand it to its
    explorer: worked examples call the public ``ek.`` functions."""
    problems = []
    for number in course.notebooks:
        cells = _cells(course, number)
        if _first_match(cells, [r"\b\w+Explorer\("], "code") is None:
            problems.append(f"{number} has no explorer")
        for index, cell in enumerate(cells):
            if cell["cell_type"] != "code":
                continue
            code = "\n".join(_code_lines(cell))
            if len(MODEL_CALL.findall(code)) > len(HANDED_TO_EXPLORER.findall(code)):
                problems.append(f"{number} builds an explorer's model outside its explorer in "
                                f"cell {index}")
    return problems


def _assignment_problems(course: Course) -> list[str]:
    """Each part ends with an open-ended assignment: its last notebook's last cells are tagged
    ``assignment`` (a prompt, a rubric table whose last column is points, and one markdown
    answer cell tagged ``assignment-answer`` whose metadata names it and gives the rubric's
    total); no other notebook has one."""
    problems = []
    last = {part["notebooks"][-1]: part["name"] for part in course.parts if part["notebooks"]}
    for number, notebook in course.notebooks.items():
        cells = _cells(course, number)
        tagged = [i for i, c in enumerate(cells)
                  if ASSIGNMENT_TAG in c.get("metadata", {}).get("tags", [])]
        answers = [i for i, c in enumerate(cells)
                   if ANSWER_TAG in c.get("metadata", {}).get("tags", [])]
        where = f"{notebook.file}"
        if number not in last:
            if tagged or answers:
                problems.append(f"{where}: has assignment cells, but only the last notebook of "
                                "a part ends with an assignment")
            continue
        part = last[number]
        if len(answers) != 1:
            problems.append(f"{where}: the last notebook of part {part!r} needs one answer cell "
                            f"tagged {ANSWER_TAG!r} (found {len(answers)})")
            continue
        if tagged != list(range(len(cells) - len(tagged), len(cells))) or answers[0] != tagged[-1]:
            problems.append(f"{where}: the assignment's cells (tagged {ASSIGNMENT_TAG!r}) must "
                            "close the notebook, the answer cell last")
        answer = cells[answers[0]]
        meta = answer.get("metadata", {}).get("assignment", {})
        if answer["cell_type"] != "markdown" or not isinstance(meta, dict) or not meta.get(
                "name") or not isinstance(meta.get("points"), int):
            problems.append(f"{where}: the answer cell must be markdown with metadata "
                            "{'assignment': {'name': ..., 'points': ...}}")
            continue
        rubric = [int(m.group(2)) for i in tagged if cells[i]["cell_type"] == "markdown"
                  for line in _source(cells[i]).splitlines()
                  if (m := RUBRIC_ROW.match(line.strip()))]
        if not rubric:
            problems.append(f"{where}: the assignment has no rubric (a table whose last column "
                            "is points)")
        elif sum(rubric) != meta["points"]:
            problems.append(f"{where}: the rubric's points add up to {sum(rubric)}, the answer "
                            f"cell says {meta['points']}")
    return problems


def _minutes_problems(course: Course) -> list[str]:
    problems = []
    cap, tolerance = course.model["max_minutes"], course.model["tolerance"]
    for number, nb in course.notebooks.items():
        found = reading(_cells(course, number), course.model)
        if found.minutes > cap:
            problems.append(f"{number} takes {found.minutes:.1f} minutes by the reading model "
                            f"(reading and running {found.reading:.1f}, exercises and explorer "
                            f"{found.work:.1f}), over the cap of {cap:g}")
        for what, said, model in (("minutes", nb.minutes, found.minutes),
                                  ("reading_minutes", nb.reading_minutes, found.reading)):
            if abs(said - model) > tolerance * model:
                problems.append(f"{number}: the map says {what} = {said}, the reading model "
                                f"{model:.1f} (more than {tolerance:.0%} apart; python "
                                "tools/course.py minutes --update)")
    return problems


def update_minutes(course: Course, path: Path = MAP) -> list[str]:
    """Set each notebook's ``minutes`` and ``reading_minutes`` in the map to the reading
    model's (N = R + W rounded, R rounded), editing only those two lines of each entry."""
    text = path.read_text(encoding="utf-8")
    blocks = re.split(r"(?m)^(?=\[\[notebook\]\]$)", text)
    changed = []
    for index, block in enumerate(blocks):
        found = re.search(r'(?m)^file = "((\d\d)-[^"]+)"$', block)
        if not block.startswith("[[notebook]]") or not found:
            continue
        r = reading(_cells(course, found.group(2)), course.model)
        new = re.sub(r"(?m)^minutes = \d+$", f"minutes = {round(r.minutes)}", block)
        line = f"reading_minutes = {round(r.reading)}"
        new = (re.sub(r"(?m)^reading_minutes = \d+$", line, new)
               if re.search(r"(?m)^reading_minutes = ", new)
               else re.sub(r"(?m)^(minutes = \d+)$", rf"\1\n{line}", new))
        if new != block:
            blocks[index] = new
            changed.append(found.group(1))
    path.write_text("".join(blocks), encoding="utf-8")
    return changed


def _made_problems(course: Course, readme: Path, picture: Path | None) -> list[str]:
    problems = []
    for number, nb in course.notebooks.items():
        source = _source(_cells(course, number)[0])
        if header_line(nb) not in source.splitlines():
            problems.append(f"{number}: the header line is not {header_line(nb)!r} "
                            "(python tools/course.py write)")
    text = readme.read_text(encoding="utf-8")
    if START not in text or END not in text:
        problems.append(f"{readme.name} lacks the {START} ... {END} markers")
    elif text.split(START, 1)[1].split(END, 1)[0] != "\n" + readme_map(course):
        problems.append(f"{readme.name}'s course map is stale (python tools/course.py write)")
    for path in course.paths:
        if path.get("kind") not in PATH_KINDS:
            problems.append(f"path {path['name']!r} needs kind = \"lecture\" or \"lab\", "
                            f"not {path.get('kind')!r}")
        for gap in path_closure(course, path):
            problems.append(f"path {path['name']!r}: {gap}, which it neither includes "
                            "before it nor assumes")
        # A path named "A 90-minute lecture" or "A 3-hour lab" must fit in that time, counted
        # as its kind counts (reading and running for a lecture, the whole for a lab).
        # "Two 3-hour labs" promise twice the time of one.
        said = re.search(r"(?:\b(a|one|two|three|four) )?(\d+)-(minute|hour)", path["name"],
                         re.I)
        total = sum(path_minutes(course, path))
        if said:
            sessions = COUNTS.get((said.group(1) or "a").lower(), 1)
            allowed = sessions * int(said.group(2)) * (60 if said.group(3) == "hour" else 1)
            if total > allowed:
                problems.append(f"path {path['name']!r} takes {total} minutes, over its "
                                f"{allowed}")
    if picture is not None:
        if not picture.exists():
            problems.append(f"{picture.name} is missing (python tools/course.py write)")
        else:
            svg = picture.read_text(encoding="utf-8")
            boxes = set(re.findall(r'id="notebook-(\d\d)"', svg))
            arrows = set(re.findall(r'id="needs-(\d\d)-(\d\d)"', svg))
            if boxes != set(course.notebooks) or arrows != drawn_needs(course):
                problems.append(f"{picture.name} does not show the map's notebooks and needs "
                                "(python tools/course.py write)")
    return problems


def check(course: Course, *, readme: Path = README, picture: Path | None = PICTURE,
          minutes: bool = True, kit: Path | None = None) -> list[str]:
    """Every rule of the course map; an empty list when all hold."""
    problems = _order_problems(course) + _concept_problems(course)
    if not any("not in notebooks/" in p for p in problems):
        problems += (_usage_problems(course) + _explorer_problems(course)
                     + _assignment_problems(course))
        if minutes:
            problems += _minutes_problems(course)
        problems += _made_problems(course, readme, picture)
        problems += instructor.problems(course, kit or instructor.directory(course))
        problems += accessibility.problems(course.notebooks_dir, course.alt_texts,
                                           applied=ALT_TEXT_APPLIED)
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["minutes", "check", "write"])
    parser.add_argument("--update", action="store_true",
                        help="with minutes: set the map's minutes to the reading model's")
    args = parser.parse_args(argv)
    course = load()
    if args.command == "minutes":
        total = 0.0
        cap = course.model["max_minutes"]
        print(f"{'nb':4s} {'words':>6s} {'code':>5s} {'ex':>3s} {'qu':>3s} {'try':>4s} "
              f"{'R':>5s} {'W':>5s} {'N':>5s}  map")
        for number, nb in course.notebooks.items():
            r = reading(_cells(course, number), course.model)
            total += r.minutes
            over = f"  over {cap:g}" if r.minutes > cap else ""
            print(f"{number:4s} {r.words:6d} {r.code_lines:5d} {r.exercises:3d} {r.questions:3d} "
                  f"{r.tries:4d} {r.reading:5.1f} {r.work:5.1f} {r.minutes:5.1f}  "
                  f"{nb.minutes} ({nb.reading_minutes} + {nb.work_minutes}){over}")
        print(f"course {total:.1f} min = {total / 60:.1f} h")
        if args.update:
            for name in update_minutes(course):
                print(f"set the minutes of {name}")
        return 0
    if args.command == "write":
        for name in write(course):
            print(f"wrote {name}")
        return 0
    problems = check(course)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
