"""kombu's Redis transport, with one guard: a worker must survive Redis going away under load.

The fault (issue #13, item 7; celery 5.7.0, kombu 5.7.0, redis 6.4.0): the worker stopped with
``CRITICAL Unrecoverable error: AttributeError("'NoneType' object has no attribute 'hostname'")``
in ``QoS.restore_unacked`` when Redis was killed under load. On a lost connection kombu detaches
the transport from its connection (``transport.client = None``, ``Connection.collect`` and
``_close``); a channel still holding unacknowledged messages (late acknowledgement: the tasks
it ran or had reserved) that is closed after that tries to push them back through the
transport's connection parameters, which are gone (``Channel._connparams``). An AttributeError
is not among the connection errors Celery's clean-up ignores, so the worker exited and resolved
nothing until restarted. The same ``_connparams`` AttributeError on a detached transport is
reported upstream for other paths (celery/kombu#582, #970); ``tests/faults/test_redis_killed.py``
reproduces this one directly.

Nothing needs restoring at that point: kombu's Redis ack emulation also keeps every delivered
message in Redis (the ``unacked`` hash) until it is acknowledged, and any worker puts it back on
its queue once ``visibility_timeout`` has passed. So the guard forgets the channel's in-memory
list and logs it; the messages stay safe in Redis, and the worker reconnects as it does for any
other connection loss. Used through ``CELERY_BROKER_TRANSPORT`` (settings) with the usual
``redis://`` URL.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis

log = logging.getLogger(__name__)


class QoS(redis.QoS):
    def restore_unacked(self, client: Any = None) -> None:
        delivered = self._delivered
        if client is None and self.channel.connection.client is None:
            if delivered:
                log.warning(
                    "broker connection closed: %s unacknowledged message(s) stay in Redis and "
                    "return to their queue after the visibility timeout",
                    len(delivered),
                )
                delivered.clear()
            return
        super().restore_unacked(client)


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
