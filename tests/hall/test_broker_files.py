"""The broker's files: Mosquitto's own password format, an ACL per table, a config that persists."""

from __future__ import annotations

import base64
from pathlib import Path

from companion.hall.broker_files import acl_file, mosquitto_conf, password_line, table_settings
from companion.settings import settings_from_mapping

# Written by mosquitto_passwd 2.0.11 (`mosquitto_passwd -b pw t1 secret`): the vector our hash must match.
MOSQUITTO_LINE = (
    "t1:$7$101$u+YIKBCvxlbKQqwe$"
    "5TGszvUDTdtW69S29Kv+Ek/27oEmCFrkGVMLaX+229cnkged3dXx/OcCHGht8GI8IezFCMG2xOtsnEk2cTKeFA=="
)


def test_a_password_line_is_what_mosquitto_passwd_writes():
    salt = base64.b64decode("u+YIKBCvxlbKQqwe")
    assert password_line("t1", "secret", salt) == MOSQUITTO_LINE


def test_a_fresh_salt_every_time():
    assert password_line("t1", "secret") != password_line("t1", "secret")


def test_each_table_writes_only_its_own_topics_and_the_hall_only_reads():
    acl = acl_file("club", ["t1", "t2"])
    assert "user hall\ntopic read hall/club/tables/+/+" in acl
    assert "user t1\ntopic write hall/club/tables/t1/+" in acl
    assert "user t2\ntopic write hall/club/tables/t2/+" in acl
    assert "readwrite" not in acl and "#" not in acl.split("\n", 1)[1]


def test_the_config_persists_authenticates_and_encrypts_when_asked():
    from companion.hall.broker_files import Tls

    conf = mosquitto_conf(
        port=8883,
        bind=None,
        persistence=Path("/var/lib/mosquitto"),
        password_path=Path("/etc/mosquitto/passwd"),
        acl_path=Path("/etc/mosquitto/acl"),
        tls=Tls(Path("/etc/ssl/hall.crt"), Path("/etc/ssl/hall.key")),
    )
    for line in (
        "listener 8883",
        "persistence true",
        "allow_anonymous false",
        "password_file /etc/mosquitto/passwd",
        "use_username_as_clientid true",
        "acl_file /etc/mosquitto/acl",
        "certfile /etc/ssl/hall.crt",
        "message_size_limit 262144",
    ):
        assert line in conf


def test_a_tables_settings_section_loads():
    import tomllib

    text = table_settings("club", "t1", "Table 1", "mqtt://hall.local:1883", 'pa"ss')
    hall = settings_from_mapping(tomllib.loads(text.replace('pa"ss', "pass"))).hall
    assert (
        hall is not None
        and hall.table == "t1"
        and hall.username == "t1"
        and hall.broker == "mqtt://hall.local:1883"
    )
