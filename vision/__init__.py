"""Camera card recognition: an adapter (it imports companion's shared types, cv2 and numpy; nothing
in ``companion/`` imports it except the command line's wiring, inside functions).

Recognition (see docs/vision.md for how it works and the measured figures):

- ``vision.references``: ``ReferenceFace(card, image)`` is one clean upright BGR face;
  ``ReferenceSet.from_dir(path, progress=None)`` reads ``path/<card-id>.png`` (or ``.jpg``) and
  ``ReferenceSet.from_faces(faces, progress=None)`` takes faces (``progress(done, total)`` after
  each); both raise a one-line ``ValueError`` for an empty or unreadable folder. ``save(path)`` /
  ``ReferenceSet.load(path)`` keep a set as one ``.npz`` in the table's data folder. ``cards`` is
  the tuple of card ids, ``descriptors`` their rows.
- ``vision.recognize``: ``Recognizer(references, settings=None).recognize(frame)`` takes a BGR (or
  grey) frame of any size and returns ``[Detection(card, corners, confidence)]``: ``corners`` is
  (4, 2) float32 frame pixels from the face's own top-left, clockwise; ``confidence`` 0..1;
  ``centre`` the quad's mean. A card it is not sure of is left out, never guessed.
  ``RecognizerSettings`` holds the thresholds and the ``DetectorSettings`` of ``vision.detect``.
- ``vision.detect``: ``find_quads(frame, DetectorSettings())`` finds card-shaped quads alone (the
  mat's enrolment uses it on a cut-out slot).
- ``vision.identify``: the descriptor of a face or of a quad in a frame.
- ``vision.synth``: rendered faces and scenes, no downloaded data. ``card_faces(ids, rng,
  size=(250, 350))``, ``card_names(count, rng)``, ``random_placements(count, faces, rng)`` →
  ``[Placement(face, centre, angle, width)]``, ``render_scene(faces, placements, rng,
  size=(1280, 720), *, hard=True, hands=None, distractors=None)`` → ``(frame, truth)`` with truth
  entries ``{"card", "corners", "occluded"}`` as in truth.json, and ``write_benchmark_set(refdir,
  scenedir, *, cards=60, scenes=200, empty=20, seed=1)``.
- ``vision.bench``: ``companion bench vision`` (``--make-set DIR`` writes the hard set).

The camera side (capture, the ArUco mat, zones, the stability watcher, ``companion vision``,
``companion demo --camera``) lives in ``capture``, ``mat``, ``zones``, ``watcher``, ``service`` and
``camera_table``.
"""
