"""Names for JSON as json.load makes it and json.dump takes it."""
from __future__ import annotations

import os
from typing import Any

# A JSON object: a document read from a file (unchecked until the schema has
# judged it) or one being written, whose values are of many kinds.
JsonObject = dict[str, Any]
# A file's name, as the standard library takes it.
FilePath = str | os.PathLike[str]
