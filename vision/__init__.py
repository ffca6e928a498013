"""Camera card recognition (an adapter: imports companion's shared types, cv2 and numpy).
Placeholder docstring, completed below once the API settles."""
