#!/usr/bin/env bash
# Installs Table Companion on a Raspberry Pi as an appliance (Raspberry Pi OS / Debian bookworm or
# trixie, arm64): a service user in the device groups, a venv, /etc/table-companion/table.toml,
# /var/lib/table-companion, the systemd service (notify + watchdog), a udev name for the bridge board,
# and a kiosk that shows the TV scoreboard full screen on HDMI. Run it again to update: it keeps your
# settings and your event log. docs/pi.md walks through it.
#
#   sudo deploy/install.sh [--kiosk auto|cage|desktop|none] [--bridge-serial SERIAL] [--no-start]
#   deploy/install.sh --root DIR [--dry-run]   # into a scratch root: files only, system commands printed
#
# --root DIR writes every file under DIR and never changes this system: the commands that would
# (apt-get, useradd, usermod, chown, pip, systemctl, udevadm, raspi-config) are printed, prefixed "+".
# --dry-run prints them without --root too.
set -euo pipefail

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEPLOY="$SOURCE/deploy"
ROOT=""
DRY_RUN=0
KIOSK=auto
BRIDGE_SERIAL=""
START=1

SERVICE_USER=table-companion
KIOSK_USER=table-kiosk
PREFIX=/opt/table-companion
VENV=$PREFIX/venv
CONF_DIR=/etc/table-companion
STATE_DIR=/var/lib/table-companion
UNIT_DIR=/etc/systemd/system
UDEV_DIR=/etc/udev/rules.d
AUTOSTART_DIR=/etc/xdg/autostart
# dialout: the bridge's ttyACM; gpio: /dev/gpiochip*; spi: /dev/spidev* (MFRC522); i2c: /dev/i2c-*;
# video: cameras (/dev/video*, /dev/media*, /dev/dma_heap); input: USB "keyboard" RFID readers;
# bluetooth: BlueZ over D-Bus (Bluetooth dice).
DEVICE_GROUPS=(dialout gpio spi i2c video input bluetooth)
KIOSK_GROUPS=(video render input)

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=${2:?--root needs a folder}; DRY_RUN=1; shift 2 ;;
        --dry-run) DRY_RUN=1; shift ;;
        --kiosk) KIOSK=${2:?--kiosk needs auto, cage, desktop or none}; shift 2 ;;
        --bridge-serial) BRIDGE_SERIAL=${2:?--bridge-serial needs the board USB serial number}; shift 2 ;;
        --no-start) START=0; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
done
case "$KIOSK" in auto|cage|desktop|none) ;; *) echo "install.sh: --kiosk auto, cage, desktop or none" >&2; exit 2 ;; esac
if [[ -n "$BRIDGE_SERIAL" && ! "$BRIDGE_SERIAL" =~ ^[A-Za-z0-9._-]+$ ]]; then
    echo "install.sh: --bridge-serial takes letters, digits, '.', '_' and '-' only" >&2
    exit 2
fi
if [ -n "$ROOT" ]; then
    mkdir -p "$ROOT"
    ROOT=$(cd "$ROOT" && pwd)
elif [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root (sudo $0), or try --dry-run" >&2
    exit 1
fi

say() { printf '%s\n' "$*"; }
# A command that changes the system: printed under --root/--dry-run, run otherwise.
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ %s\n' "$*"
    else
        "$@"
    fi
}
# Files always go under the root prefix (empty on a real install).
put() {  # put MODE SOURCE DEST
    install -D -m "$1" "$2" "$ROOT$3"
    say "wrote $3"
}

check_platform() {
    local release="$ROOT/etc/os-release" codename="" arch
    # shellcheck disable=SC1090  # os-release is a shell fragment by definition
    if [ -r "$release" ]; then codename=$(. "$release" && printf '%s' "${VERSION_CODENAME:-}"); fi
    arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
    case "$codename" in
        bookworm|trixie) ;;
        "") say "note: no /etc/os-release under the root: not checking the release" ;;
        *) say "warning: made for Raspberry Pi OS bookworm or trixie, this is $codename: carrying on" ;;
    esac
    if [ -z "$ROOT" ] && [ "$arch" != arm64 ] && [ "$arch" != aarch64 ]; then
        say "warning: made for arm64 (64-bit Raspberry Pi OS), this is $arch: carrying on"
    fi
}

install_packages() {
    # From apt, not pip: lgpio and picamera2 (libcamera's bindings exist only as Debian packages),
    # spidev; the venv sees them through --system-site-packages.
    local packages=(python3-venv python3-pip python3-lgpio python3-spidev python3-picamera2 bluez curl)
    if [ "$KIOSK" = cage ]; then packages+=(cage); fi
    if [ "$KIOSK" != none ]; then
        # Raspberry Pi OS bookworm calls it chromium-browser; trixie and Debian, chromium.
        if [ -n "$ROOT" ] || apt-cache show chromium >/dev/null 2>&1; then packages+=(chromium); else packages+=(chromium-browser); fi
    fi
    run apt-get update
    run apt-get install -y --no-install-recommends "${packages[@]}"
}

group_exists() {
    if [ -n "$ROOT" ]; then
        [ -r "$ROOT/etc/group" ] && grep -q "^$1:" "$ROOT/etc/group"
    else
        getent group "$1" >/dev/null
    fi
}

user_exists() {
    if [ -n "$ROOT" ]; then
        [ -r "$ROOT/etc/passwd" ] && grep -q "^$1:" "$ROOT/etc/passwd"
    else
        id -u "$1" >/dev/null 2>&1
    fi
}

create_user() {  # create_user NAME HOME GROUP...
    local name=$1 home=$2
    shift 2
    if user_exists "$name"; then
        say "user $name exists"
    else
        run useradd --system --user-group --home-dir "$home" --no-create-home --shell /usr/sbin/nologin "$name"
    fi
    local group
    for group in "$@"; do
        if group_exists "$group" || [ "$DRY_RUN" = 1 ]; then
            run usermod -aG "$group" "$name"
        else
            say "note: no group $group on this system: skipped"
        fi
    done
}

make_directories() {
    install -d -m 0755 "$ROOT$CONF_DIR" "$ROOT$PREFIX"
    install -d -m 0750 "$ROOT$STATE_DIR"
    run chown "$SERVICE_USER:$SERVICE_USER" "$STATE_DIR"
    say "made $CONF_DIR, $STATE_DIR (for $SERVICE_USER), $PREFIX"
}

install_venv() {
    run python3 -m venv --system-site-packages "$VENV"
    run "$VENV/bin/pip" install --upgrade pip
    run "$VENV/bin/pip" install "${SOURCE}[pi]"
    # The docs the unit's Documentation= points at.
    install -d -m 0755 "$ROOT$PREFIX/docs"
    cp "$SOURCE/docs/pi.md" "$ROOT$PREFIX/docs/pi.md"
}

write_settings() {
    local settings="$CONF_DIR/table.toml"
    if [ -e "$ROOT$settings" ]; then
        say "kept $settings (yours)"
        return
    fi
    # A PIN of the table's own, fixed across restarts (the phones keep working after a power cut).
    local pin
    pin=$(printf '%04d' $((10#$(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 10000)))
    sed "s/@PIN@/$pin/" "$DEPLOY/table.toml" > "$ROOT$settings.new"
    chmod 0640 "$ROOT$settings.new"
    mv "$ROOT$settings.new" "$ROOT$settings"
    run chown "root:$SERVICE_USER" "$settings"
    say "wrote $settings (table PIN $pin)"
}

install_service() {
    put 0644 "$DEPLOY/systemd/table-companion.service" "$UNIT_DIR/table-companion.service"
}

install_udev_rule() {
    local rule="$UDEV_DIR/70-table-companion.rules" pin=""
    # With a serial number the rule names this one board only (a Pi with two Picos plugged in).
    if [ -n "$BRIDGE_SERIAL" ]; then pin="ATTRS{serial}==\"$BRIDGE_SERIAL\", "; fi
    install -d -m 0755 "$ROOT$UDEV_DIR"
    sed "s/ATTRS{idProduct}==\"0005\", /&$pin/" "$DEPLOY/udev/70-table-companion.rules" > "$ROOT$rule"
    chmod 0644 "$ROOT$rule"
    say "wrote $rule (the bridge board appears as /dev/table-bridge)"
    run udevadm control --reload-rules
    run udevadm trigger --subsystem-match=tty --action=add
}

choose_kiosk() {
    if [ "$KIOSK" != auto ]; then return; fi
    # A desktop image runs a display manager; Lite does not.
    if [ -e "$ROOT/usr/sbin/lightdm" ] || [ -e "$ROOT/etc/systemd/system/display-manager.service" ]; then
        KIOSK=desktop
    else
        KIOSK=cage
    fi
    say "kiosk: $KIOSK"
}

install_kiosk() {
    if [ "$KIOSK" = none ]; then
        say "kiosk: none"
        return
    fi
    put 0755 "$DEPLOY/kiosk/kiosk-browser" "$PREFIX/kiosk-browser"
    local port
    port=$(sed -n 's/^port *= *\([0-9][0-9]*\).*/\1/p' "$ROOT$CONF_DIR/table.toml" | head -n1)
    printf 'KIOSK_URL=http://127.0.0.1:%s/?kiosk=1\n' "${port:-8000}" > "$ROOT$CONF_DIR/kiosk.env"
    say "wrote $CONF_DIR/kiosk.env"
    if [ "$KIOSK" = cage ]; then
        create_user "$KIOSK_USER" "/var/lib/$KIOSK_USER" "${KIOSK_GROUPS[@]}"
        install -d -m 0750 "$ROOT/var/lib/$KIOSK_USER"
        run chown "$KIOSK_USER:$KIOSK_USER" "/var/lib/$KIOSK_USER"
        run usermod --home "/var/lib/$KIOSK_USER" "$KIOSK_USER"
        put 0644 "$DEPLOY/systemd/table-companion-kiosk.service" "$UNIT_DIR/table-companion-kiosk.service"
        run systemctl set-default graphical.target
    else
        put 0644 "$DEPLOY/kiosk/table-companion-kiosk.desktop" "$AUTOSTART_DIR/table-companion-kiosk.desktop"
        # The desktop's own screen blanking off (raspi-config: 1 = disable).
        run raspi-config nonint do_blanking 1
    fi
}

enable_interfaces() {
    # SPI for MFRC522 readers on the Pi, I2C for a PN532 (raspi-config: 0 = enable).
    if [ -n "$ROOT" ] || command -v raspi-config >/dev/null 2>&1; then
        run raspi-config nonint do_spi 0
        run raspi-config nonint do_i2c 0
    else
        say "note: no raspi-config: enable SPI yourself (dtparam=spi=on in config.txt) for MFRC522 readers"
    fi
}

start_services() {
    run systemctl daemon-reload
    local units=(table-companion.service)
    if [ "$KIOSK" = cage ]; then units+=(table-companion-kiosk.service); fi
    if [ "$START" = 1 ]; then
        run systemctl enable --now "${units[@]}"
    else
        run systemctl enable "${units[@]}"
    fi
}

main() {
    say "Table Companion install from $SOURCE${ROOT:+ into $ROOT}"
    if [ "$DRY_RUN" = 1 ]; then say "(system commands are printed, not run)"; fi
    check_platform
    choose_kiosk
    install_packages
    create_user "$SERVICE_USER" "$STATE_DIR" "${DEVICE_GROUPS[@]}"
    make_directories
    install_venv
    write_settings
    install_service
    install_udev_rule
    install_kiosk
    enable_interfaces
    start_services
    say ""
    local address=PI
    if [ -z "$ROOT" ]; then address=$(hostname -I 2>/dev/null | awk '{print $1}'); fi
    say "Done. TV: http://${address:-PI}:8000/   phones: http://${address:-PI}:8000/control"
    say "Check the whole chain: sudo -u $SERVICE_USER $VENV/bin/companion doctor --config $CONF_DIR/table.toml"
    say "Logs: journalctl -u table-companion -f"
}

main
