"""The table session: the single writer of game state, the crash-safe event log and published views.

Callers code against ``contract.SessionPort``; ``Session`` implements it over SQLite.
"""

from companion.session.contract import PUBLISHED_VIEW_KEYS, Command, Outcome, SessionPort, Subscription
from companion.session.history import UnknownGameIdError
from companion.session.resume import ResumeStats
from companion.session.run import replay
from companion.session.session import Session
from companion.session.store import EventLogError
from companion.session.views import PublishedView

__all__ = [
    "PUBLISHED_VIEW_KEYS",
    "Command",
    "EventLogError",
    "Outcome",
    "PublishedView",
    "ResumeStats",
    "Session",
    "SessionPort",
    "Subscription",
    "UnknownGameIdError",
    "replay",
]
