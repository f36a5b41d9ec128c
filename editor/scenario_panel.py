"""The scenario panel: name, author, description, rule options, board size
and robots. Typing in a field is one undo step per field (the keystrokes
merge); the widgets follow the document on undo and redo."""
from __future__ import annotations

import difflib
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemDelegate, QCheckBox, QComboBox, QCompleter, QDialog, QDialogButtonBox,
    QFormLayout, QGridLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
    QPlainTextEdit, QPushButton, QSpinBox, QScrollArea, QStyledItemDelegate, QTableWidget,
    QTableWidgetItem, QVBoxLayout, QWidget,
)

from rallyforge.editor import commands, dialogs
from rallyforge.editor.table_cell import cell
from rallyforge.engine.analysis.team_colors import team_color
from rallyforge.engine.analysis.balance.play import bot_names
from rallyforge.engine.editing import edit, transform
from rallyforge.engine.format.schema import SCHEMA
from rallyforge.engine.model.option_cards import BY_ID, OPTION_CARDS, card_id, card_name
from rallyforge.engine.model.scenario import ROLES, RULE_NAMES, SPECIAL_RULES, RobotSpec, Rules


OPTIONS_TIP = ("Option cards the robot starts with: card names (or ids) separated by commas, "
               "or a number of cards dealt from the option deck; empty: the rules' starting "
               "options.\n" + "\n".join(f"{c.name}: {c.effect}" for c in OPTION_CARDS))


def options_text(options: int | tuple[str, ...] | None) -> str:
    """A robot's starting options as the table shows them: card names, a count, or empty."""
    if options is None:
        return ""
    if isinstance(options, int):
        return str(options)
    return ", ".join(card_name(c) for c in options)


def _unknown(text: str, what: str, names: list[str]) -> ValueError:
    """`text` is not a `what`: the error names the closest of `names`, or all of them."""
    close = difflib.get_close_matches(text.lower(), [n.lower() for n in names], n=1, cutoff=0.6)
    hint = (f"did you mean {next(n for n in names if n.lower() == close[0])}?" if close
            else f"the {what}s are: {', '.join(names)}")
    return ValueError(f"{text!r} is not a{'n' if what[0] in 'aeiou' else ''} {what}; {hint}")


def parse_options(text: str) -> int | tuple[str, ...] | None:
    """The table's text back to a robot's options: a count, card names or ids
    separated by commas (case and spaces ignored), or None when empty.
    ValueError says what is not understood (nothing typed is dropped)."""
    text = text.strip()
    if not text:
        return None
    if text.isdigit():
        if int(text) > len(OPTION_CARDS):
            raise ValueError(f"there are {len(OPTION_CARDS)} option cards, not {text}")
        return int(text)
    cards: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        card = card_id(part)
        if card is None:
            raise _unknown(part, "option card", [c.name for c in OPTION_CARDS])
        if card in cards:
            raise ValueError(f"{BY_ID[card].name} is listed twice; each card exists once")
        cards.append(card)
    return tuple(cards)


def parse_bot(text: str) -> str | None:
    """The table's text back to a robot's bot (None when empty); ValueError
    for a name no bot answers to."""
    text = text.strip()
    if not text:
        return None
    if text.lower() not in bot_names():
        raise _unknown(text, "bot", bot_names())
    return text.lower()


def parse_role(text: str) -> str | None:
    """The table's text back to a robot's role (None when empty)."""
    text = text.strip().lower()
    if not text:
        return None
    if text not in ROLES:
        raise _unknown(text, "role", list(ROLES))
    return text


def parse_dock(text: str) -> int | None:
    """The table's text back to a robot's dock number (None when empty)."""
    text = text.strip()
    if not text:
        return None
    if not (text.isdigit() and int(text) >= 1):
        raise ValueError(f"a dock is a number from 1, not {text!r}")
    return int(text)


class ListCompleter(QCompleter):
    """Completes the last of the names separated by commas."""

    def splitPath(self, path: str) -> list[str]:
        return [path.rpartition(",")[2].strip()]

    def pathFromIndex(self, index) -> str:
        line = self.widget()
        assert isinstance(line, QLineEdit)      # it completes a line edit
        head = line.text().rpartition(",")[0]
        return (head + ", " if head else "") + super().pathFromIndex(index)


class CompletingDelegate(QStyledItemDelegate):
    """A cell editor that offers `names` as the user types."""

    def __init__(self, names: list[str], many: bool = False, parent=None):
        super().__init__(parent)
        self.names, self.many = names, many

    def createEditor(self, parent, option, index):
        editor = QLineEdit(parent)
        completer = (ListCompleter if self.many else QCompleter)(self.names, editor)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        editor.setCompleter(completer)
        # Return while the list is open reaches the line edit, not the
        # delegate: the cell is still typed in, not left as it was
        editor.returnPressed.connect(lambda: self._done(editor))
        return editor

    def _done(self, editor: QLineEdit) -> None:
        self.commitData.emit(editor)
        self.closeEditor.emit(editor, QAbstractItemDelegate.EndEditHint.NoHint)


# Title, range, default and description of each rule, from the loaded JSON Schema.
RULE_SCHEMAS: dict = SCHEMA["$defs"]["rules"]["properties"]


def rule_change_text(name: str, value) -> str:
    """A rule's change in words, for the undo history: "Turn on robot lasers",
    "Set starting options to 2"."""
    title = RULE_SCHEMAS[name].get("title", name.replace("_", " ")).lower()
    if isinstance(value, bool):
        return f"Turn {'on' if value else 'off'} {title}"
    if value is None:
        return f"Turn off {title}"
    return f"Set {title} to {value}"


class ResizeDialog(QDialog):
    """Rows and columns to add (positive) or remove (negative) on each side."""

    def __init__(self, scenario, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Resize Board")
        self.scenario = scenario
        self.board_size = (scenario.board.width, scenario.board.height)
        self.spins = {}
        grid = QGridLayout()
        places = {"top": (0, 1), "left": (1, 0), "right": (1, 2), "bottom": (2, 1)}
        for side, (row, col) in places.items():
            spin = QSpinBox()
            spin.setRange(-99, 99)
            spin.setPrefix(f"{side}: ")
            spin.setToolTip(f"Squares to add on the {side} (negative: remove)")
            spin.valueChanged.connect(self.update_result)
            self.spins[side] = spin
            grid.addWidget(spin, row, col)
        self.result_label = QLabel()
        self.result_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        grid.addWidget(self.result_label, 1, 1)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Add rows and columns on each side (negative numbers remove them;\n"
                                "what falls off the board is deleted)."))
        layout.addLayout(grid)
        self.lost_label = QLabel()      # what the new size deletes, before OK
        self.lost_label.setWordWrap(True)
        self.lost_label.setStyleSheet("color: #c62828; font-weight: bold")
        layout.addWidget(self.lost_label)
        layout.addWidget(self.buttons)
        self.update_result()

    def margins(self) -> dict[str, int]:
        return {side: spin.value() for side, spin in self.spins.items()}

    def update_result(self) -> None:
        m = self.margins()
        w = self.board_size[0] + m["left"] + m["right"]
        h = self.board_size[1] + m["top"] + m["bottom"]
        ok = 1 <= w <= 100 and 1 <= h <= 100
        self.result_label.setText(f"{w} × {h}" if ok else f"{w} × {h}\n(1 to 100 each way)")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)
        lost = edit.lost_elements(self.scenario, self.resized()) if ok else {}
        self.lost_label.setText(f"This deletes {edit.count_text(lost)}." if lost else "")

    def resized(self):
        m = self.margins()
        return transform.resize(self.scenario, m["left"], m["top"], m["right"], m["bottom"])


class ScenarioPanel(QScrollArea):
    ROBOT_COLUMNS = ("Name", "Dock", "Bot", "Options", "Team", "Role")

    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.setWidgetResizable(True)
        page = QWidget()
        layout = QVBoxLayout(page)

        about = QGroupBox("Course")
        form = QFormLayout(about)
        self.name = QLineEdit()
        self.name.textEdited.connect(lambda t: self.set_field("name", t, "Rename"))
        self.author = QLineEdit()
        self.author.textEdited.connect(
            lambda t: self.set_field("author", t or None, "Change author"))
        self.description = QPlainTextEdit()
        self.description.setFixedHeight(70)
        self.description.textChanged.connect(self.on_description)
        form.addRow("Name", self.name)
        form.addRow("Author", self.author)
        form.addRow("Description", self.description)
        layout.addWidget(about)

        board = QGroupBox("Board")
        row = QHBoxLayout(board)
        self.size_label = QLabel()
        resize = self.resize_button = QPushButton("Resize…")
        resize.clicked.connect(self.resize_board)
        row.addWidget(self.size_label, 1)
        row.addWidget(resize)
        layout.addWidget(board)

        rules = QGroupBox("Rules")
        rules_form = QFormLayout(rules)
        special = QGroupBox("Special Rules")     # what published courses change (docs/rules.md 12)
        special_form = QFormLayout(special)
        self.rule_widgets = {}
        for name, spec in RULE_SCHEMAS.items():
            if name not in RULE_NAMES:
                continue
            widget = self.rule_widget(name, spec)
            widget.setToolTip(spec.get("description", ""))
            label = QLabel(spec.get("title", name))
            label.setToolTip(spec.get("description", ""))
            (special_form if name in SPECIAL_RULES else rules_form).addRow(label, widget)
            self.rule_widgets[name] = widget
        defaults = QPushButton("Reset to defaults")
        defaults.clicked.connect(lambda: self.change(
            edit.set_rules(self.doc.scenario, Rules(note=self.doc.scenario.rules.note)),
            "Reset rules"))
        rules_form.addRow("", defaults)
        layout.addWidget(rules)
        layout.addWidget(special)

        robots = QGroupBox("Robots")
        robots_layout = QVBoxLayout(robots)
        hint = QLabel("Without robots, a race puts one bot on each dock.")
        hint.setWordWrap(True)
        self.robots = QTableWidget(0, len(self.ROBOT_COLUMNS))
        self.robots.setHorizontalHeaderLabels(self.ROBOT_COLUMNS)
        self.robots.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.robots.verticalHeader().setVisible(False)
        self.robots.setMinimumHeight(110)
        self.robots.setItemDelegateForColumn(2, CompletingDelegate(bot_names(), parent=self))
        self.robots.setItemDelegateForColumn(
            3, CompletingDelegate([c.name for c in OPTION_CARDS], many=True, parent=self))
        self.robots.itemChanged.connect(self.on_robot_edited)
        buttons = QHBoxLayout()
        add = QPushButton("Add robot")
        add.clicked.connect(self.add_robot)
        remove = QPushButton("Remove")
        remove.clicked.connect(self.remove_robot)
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch()
        robots_layout.addWidget(hint)
        robots_layout.addWidget(self.robots)
        robots_layout.addLayout(buttons)
        layout.addWidget(robots)
        layout.addStretch()
        self.setWidget(page)

        doc.changed.connect(lambda area: self.refresh())
        doc.scenarioReplaced.connect(self.refresh)
        self.refresh()

    # ------------------------------------------------------------ edits

    def change(self, new, text: str, merge_key=None) -> None:
        commands.change(self.doc, new, text, merge_key=merge_key)

    def set_field(self, name: str, value, text: str) -> None:
        self.change(edit.set_fields(self.doc.scenario, **{name: value}), text, merge_key=name)

    def on_description(self) -> None:
        if self._refreshing:
            return
        self.set_field("description", self.description.toPlainText() or None, "Change description")

    def rule_widget(self, name: str, spec: dict) -> QWidget:
        if spec.get("type") == "boolean":
            box = QCheckBox()
            box.toggled.connect(lambda on: self.set_rule(name, on))
            return box
        if "enum" in spec:
            combo = QComboBox()
            combo.addItems(spec["enum"])
            combo.currentTextChanged.connect(lambda t: self.set_rule(name, t))
            return combo
        spin = QSpinBox()
        # a number that may be left out (programming_seconds): one below its
        # range reads "off" and means no value
        optional = "default" not in spec
        low = spec.get("minimum", 0) - optional
        spin.setRange(low, spec.get("maximum", 10000))
        if optional:
            spin.setSpecialValueText("off")
        spin.valueChanged.connect(
            lambda v: self.set_rule(name, None if optional and v == low else v))
        return spin

    def set_rule(self, name: str, value) -> None:
        if self._refreshing:
            return
        rules = replace(self.doc.scenario.rules, **{name: value})
        self.change(edit.set_rules(self.doc.scenario, rules), rule_change_text(name, value),
                    merge_key="rule:" + name)

    def resize_board(self) -> None:
        dialog = ResizeDialog(self.doc.scenario, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.change(dialog.resized(), "Resize board")

    def add_robot(self) -> None:
        robots = self.doc.scenario.robots
        names = {r.name for r in robots}
        n = len(robots) + 1
        while f"Robot {n}" in names:
            n += 1
        self.change(edit.set_robots(self.doc.scenario, (*robots, RobotSpec(f"Robot {n}"))),
                    "Add robot")

    def remove_robot(self) -> None:
        row = self.robots.currentRow()
        robots = list(self.doc.scenario.robots)
        if 0 <= row < len(robots):
            del robots[row]
            self.change(edit.set_robots(self.doc.scenario, robots), "Remove robot")

    def on_robot_edited(self, item: QTableWidgetItem) -> None:
        """A robot's row as typed, or, when a cell is not understood, the row
        as it was and a message saying why: nothing typed is dropped unsaid."""
        if self._refreshing:
            return
        row = item.row()
        robots = list(self.doc.scenario.robots)
        name, dock, bot, options, team, role = (cell(self.robots, row, c).text()
                                                for c in range(6))
        try:
            if not name.strip():
                raise ValueError("a robot needs a name")
            robots[row] = replace(robots[row], name=name.strip(), dock=parse_dock(dock),
                                  bot=parse_bot(bot), options=parse_options(options),
                                  team=team.strip() or None, role=parse_role(role))
        except ValueError as exc:
            self.refresh()
            dialogs.show_error(self, "Robot not changed", f"Robot {robots[row].name!r}: {exc}")
            return
        self.change(edit.set_robots(self.doc.scenario, robots), "Change robot")
        self.refresh()   # the names as the table writes them (Brakes for "brakes")

    # ------------------------------------------------------------ following the document

    _refreshing = False

    def refresh(self) -> None:
        s = self.doc.scenario
        self._refreshing = True
        try:
            if self.name.text() != s.name:
                self.name.setText(s.name)
            if self.author.text() != (s.author or ""):
                self.author.setText(s.author or "")
            if self.description.toPlainText() != (s.description or ""):
                self.description.setPlainText(s.description or "")
            self.size_label.setText(f"{s.board.width} × {s.board.height} squares")
            for name, widget in self.rule_widgets.items():
                value = getattr(s.rules, name)
                if isinstance(widget, QCheckBox):
                    widget.setChecked(value)
                elif isinstance(widget, QComboBox):
                    widget.setCurrentText(value)
                elif isinstance(widget, QSpinBox):
                    widget.setValue(widget.minimum() if value is None else value)
            self.refresh_robots(s.robots)
        finally:
            self._refreshing = False

    def refresh_robots(self, robots) -> None:
        rows = [(r.name, "" if r.dock is None else str(r.dock), r.bot or "",
                 options_text(r.options), r.team or "", r.role or "") for r in robots]
        if self.robots.rowCount() == len(robots) and all(
                (item := self.robots.item(i, c)) is not None and item.text() == text
                for i, row in enumerate(rows) for c, text in enumerate(row)):
            return
        self.robots.setRowCount(len(robots))
        for i, row in enumerate(rows):
            for c, text in enumerate(row):
                item = QTableWidgetItem(text)
                if c == 3:
                    item.setToolTip(OPTIONS_TIP)
                self.robots.setItem(i, c, item)
        self._team_colours()

    def _team_colours(self) -> None:
        """The Team cells in their team's colour (docs/rules.md 13: a robot's
        team from its entry, `teams` or the seating rule; one it does not
        name itself is told in the tooltip)."""
        s = self.doc.scenario
        seats = s.seats() if s.team_race and s.robots else ()
        teams = list(dict.fromkeys(seat.team for seat in seats))
        for row, seat in enumerate(seats):
            item = self.robots.item(row, 4)
            role = self.robots.item(row, 5)
            color = team_color(seat.team, teams.index(seat.team))
            if item is None or role is None or color is None:
                continue
            item.setToolTip(f"team {seat.team}, {seat.role}" + (
                "" if item.text() and role.text() else " (from teams or the seating rule)"))
            item.setBackground(QBrush(QColor(color).lighter(170)))
