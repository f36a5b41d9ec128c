"""The format layer: scenario files read and written (format v1).

``schema`` checks a document's structure against schema/, ``loader`` reads
documents into the model and writes them back in canonical form,
``stored_course_card`` keeps a course card in the file with the hash of what
affects play; ``typed_json`` checks parsed JSON against a TypedDict's
annotations (a card kept in a file).
"""
