"""The exceptions of lowering_oracle (docs/python.md, "Errors")."""


class InvalidInput(ValueError):
    """A document the oracle cannot read (exit status 2 on the command line, docs/spec.md §4.5).

    str(error) is the one error line of the command line, ``FILE:LINE:COLUMN: POINTER: MESSAGE``;
    the parts are attributes: ``file``, ``line`` and ``column`` (1-based, 0 when unknown),
    ``pointer`` (a JSON pointer into the document, "" when none) and ``message``; ``document``
    is "candidate" when check()'s candidate is the document that cannot be read (assert_conforms
    then raises AssertionError: docs/python.md), else "".
    """

    # The parts of the error line, in the order of the constructor's arguments after ``text``.
    PARTS = ("file", "line", "column", "pointer", "message", "document")

    def __init__(self, text, file="", line=0, column=0, pointer="", message="", document=""):
        super().__init__(text)
        self.text = text
        for name, value in zip(self.PARTS, (file, line, column, pointer, message, document)):
            setattr(self, name, value)

    def __str__(self):
        return self.text

    def __reduce__(self):
        return (InvalidInput, (self.text,) + tuple(getattr(self, name) for name in self.PARTS))


class PlanningError(ValueError):
    """Selection's error (docs/spec.md §10.7): a graph the profile cannot plan (a duplicate module,
    a graph that is not well formed, a node with no admissible capsule). str(error) is upstream's
    message, the line ``lowering-oracle plan`` prints before it exits 2."""
