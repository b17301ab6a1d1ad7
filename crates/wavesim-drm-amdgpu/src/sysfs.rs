//! The files the shim makes appear: the render node `/dev/dri/renderD128` and the sysfs
//! entries libdrm's `drmGetDevices2`/`drmGetDevice2` read to find a PCI GPU behind it
//! (libdrm 2.4.114 `xf86drm.c`: `drmNodeIsDRM` stats `/sys/dev/char/M:m/device/drm`,
//! `drmParseSubsystemType` resolves `device/subsystem` with realpath, `drmParsePciBusInfo`
//! reads `PCI_SLOT_NAME` from `device/uevent`, `drmParsePciDeviceInfo` reads `vendor`,
//! `device`, `subsystem_vendor`, `subsystem_device`, `revision` (or `config`), and
//! `drmGetDeviceNameFromFd2` lists `device/drm` for the node names).

use crate::device::*;

/// What a path names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// A directory and the names it lists.
    Dir(Vec<&'static str>),
    /// A regular file and its bytes.
    File(Vec<u8>),
    /// A symbolic link: what readlink returns and what realpath resolves it to.
    Link {
        target: &'static str,
        real: &'static str,
    },
    /// The render node (character device 226:128).
    RenderNode,
}

pub const DRI_DIR: &str = "/dev/dri";
pub const RENDER_NODE: &str = "/dev/dri/renderD128";
const SYS_CHAR: &str = "/sys/dev/char/226:128";
const SYS_DEVICE: &str = "/sys/dev/char/226:128/device";
/// Where sysfs's `device` link of the node resolves to.
const SYS_PCI_DEVICE: &str = "/sys/devices/pci0000:00/0000:00:01.1/0000:03:00.0";

/// True for paths this module answers for (the render node, its directory and its sysfs
/// entries), whether or not the file exists there.
pub fn is_ours(path: &str) -> bool {
    let p = path.trim_end_matches('/');
    p == DRI_DIR
        || p.starts_with("/dev/dri/")
        || p == SYS_CHAR
        || p.starts_with("/sys/dev/char/226:128/")
        || p == SYS_PCI_DEVICE
        || p.starts_with("/sys/devices/pci0000:00/0000:00:01.1/0000:03:00.0/")
}

fn uevent() -> Vec<u8> {
    format!(
        "DRIVER=amdgpu\nPCI_CLASS=30000\nPCI_ID={PCI_VENDOR:04X}:{PCI_DEVICE:04X}\n\
         PCI_SUBSYS_ID={PCI_SUBSYS_VENDOR:04X}:{PCI_SUBSYS_DEVICE:04X}\nPCI_SLOT_NAME={PCI_SLOT}\n\
         MODALIAS=pci:v{PCI_VENDOR:08X}d{PCI_DEVICE:08X}sv{PCI_SUBSYS_VENDOR:08X}sd{PCI_SUBSYS_DEVICE:08X}bc03sc00i00\n"
    )
    .into_bytes()
}

/// The standard PCI configuration header's first 64 bytes (PCI Local Bus Specification 6.1):
/// vendor, device, class code 0x030000 (VGA display controller), revision, subsystem ids.
fn pci_config() -> Vec<u8> {
    let mut c = vec![0u8; 64];
    c[0..2].copy_from_slice(&(PCI_VENDOR as u16).to_le_bytes());
    c[2..4].copy_from_slice(&(PCI_DEVICE as u16).to_le_bytes());
    c[8] = PCI_REVISION as u8;
    c[11] = 0x03;
    c[0x2c..0x2e].copy_from_slice(&(PCI_SUBSYS_VENDOR as u16).to_le_bytes());
    c[0x2e..0x30].copy_from_slice(&(PCI_SUBSYS_DEVICE as u16).to_le_bytes());
    c
}

/// The node at `path` (absolute, as libdrm builds it), or None if it does not exist.
pub fn lookup(path: &str) -> Option<Node> {
    let p = path.trim_end_matches('/');
    // The PCI device directory has two names: through the char device's link and its own.
    let dev_rel = p
        .strip_prefix(SYS_DEVICE)
        .or_else(|| p.strip_prefix(SYS_PCI_DEVICE));
    let hex = |v: u32, w: usize| format!("0x{v:0w$x}\n").into_bytes();
    match p {
        DRI_DIR => return Some(Node::Dir(vec!["renderD128"])),
        RENDER_NODE => return Some(Node::RenderNode),
        SYS_CHAR => return Some(Node::Dir(vec!["device", "dev", "uevent"])),
        "/sys/dev/char/226:128/dev" => {
            return Some(Node::File(
                format!("{DRM_MAJOR}:{RENDER_MINOR}\n").into_bytes(),
            ))
        }
        "/sys/dev/char/226:128/uevent" => {
            return Some(Node::File(
                format!("MAJOR={DRM_MAJOR}\nMINOR={RENDER_MINOR}\nDEVNAME=dri/renderD128\n")
                    .into_bytes(),
            ))
        }
        _ => {}
    }
    Some(match dev_rel? {
        "" => Node::Dir(vec![
            "drm",
            "subsystem",
            "driver",
            "uevent",
            "vendor",
            "device",
            "subsystem_vendor",
            "subsystem_device",
            "revision",
            "config",
        ]),
        "/drm" => Node::Dir(vec!["renderD128"]),
        "/drm/renderD128" => Node::Dir(vec!["dev", "uevent"]),
        "/subsystem" => Node::Link {
            target: "../../../bus/pci",
            real: "/sys/bus/pci",
        },
        "/driver" => Node::Link {
            target: "../../../bus/pci/drivers/amdgpu",
            real: "/sys/bus/pci/drivers/amdgpu",
        },
        "/uevent" => Node::File(uevent()),
        "/vendor" => Node::File(hex(PCI_VENDOR, 4)),
        "/device" => Node::File(hex(PCI_DEVICE, 4)),
        "/subsystem_vendor" => Node::File(hex(PCI_SUBSYS_VENDOR, 4)),
        "/subsystem_device" => Node::File(hex(PCI_SUBSYS_DEVICE, 4)),
        "/revision" => Node::File(hex(PCI_REVISION, 2)),
        "/config" => Node::File(pci_config()),
        _ => return None,
    })
}

/// What realpath returns for `path`, if it is ours and exists.
pub fn realpath(path: &str) -> Option<String> {
    let p = path.trim_end_matches('/');
    if p == SYS_DEVICE {
        return Some(SYS_PCI_DEVICE.to_string());
    }
    match lookup(p)? {
        Node::Link { real, .. } => Some(real.to_string()),
        _ => Some(match p.strip_prefix(SYS_DEVICE) {
            Some(rest) => format!("{SYS_PCI_DEVICE}{rest}"),
            None => p.to_string(),
        }),
    }
}

/// What readlink returns for `path`, if it is one of our links.
pub fn readlink(path: &str) -> Option<&'static str> {
    let p = path.trim_end_matches('/');
    if p == SYS_DEVICE {
        return Some("../../../devices/pci0000:00/0000:00:01.1/0000:03:00.0");
    }
    match lookup(p)? {
        Node::Link { target, .. } => Some(target),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libdrm_paths() {
        // drmNodeIsDRM: the drm directory of the device exists.
        assert!(matches!(
            lookup("/sys/dev/char/226:128/device/drm"),
            Some(Node::Dir(_))
        ));
        // drmParseSubsystemType: basename of the realpath is "pci".
        assert_eq!(
            realpath("/sys/dev/char/226:128/device/subsystem").as_deref(),
            Some("/sys/bus/pci")
        );
        let Some(Node::File(u)) = lookup("/sys/dev/char/226:128/device/uevent") else {
            panic!("no uevent")
        };
        assert!(String::from_utf8_lossy(&u).contains("PCI_SLOT_NAME=0000:03:00.0\n"));
        assert_eq!(
            lookup("/sys/dev/char/226:128/device/device"),
            Some(Node::File(b"0x744c\n".to_vec()))
        );
        assert_eq!(lookup("/sys/dev/char/226:128/device/nope"), None);
        assert!(is_ours("/dev/dri/card0") && lookup("/dev/dri/card0").is_none());
        assert!(!is_ours("/dev/null"));
    }
}
