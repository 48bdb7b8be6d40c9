//! Where webhooks may go: production endpoints must resolve to public
//! addresses only, checked at registration and again before every attempt
//! (DNS can change), so that a tenant cannot point the service at loopback,
//! private networks or a cloud metadata service.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::Gateway;

/// Whether an address is on the public internet.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_public_v4(v4),
            None => is_public_v6(v6),
        },
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0 && c == 0)
        || (a == 198 && (b == 18 || b == 19))
        || a >= 240)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || first == 0x2001 && ip.segments()[1] == 0x0db8
        || first == 0x0064 && ip.segments()[1] == 0xff9b)
}

impl Gateway {
    /// Refuses a URL whose host is, or resolves to, an address that is not
    /// public. A name that does not resolve now is let through: the check
    /// runs again before each attempt.
    pub(crate) async fn check_destination(&self, url: &str) -> Result<(), String> {
        let parsed = url::Url::parse(url).map_err(|e| format!("url is not a valid URL: {e}"))?;
        let port = parsed.port_or_known_default().unwrap_or(443);
        let addresses = match parsed.host() {
            Some(url::Host::Ipv4(ip)) => vec![IpAddr::V4(ip)],
            Some(url::Host::Ipv6(ip)) => vec![IpAddr::V6(ip)],
            Some(url::Host::Domain(name)) if name.eq_ignore_ascii_case("localhost") || name.to_ascii_lowercase().ends_with(".localhost") => {
                return Err("url must not point at this machine".into())
            }
            Some(url::Host::Domain(name)) => match &self.resolver {
                Some(resolver) => resolver.resolve(name, port).await,
                None => Vec::new(),
            },
            None => return Err("url needs a host".into()),
        };
        match addresses.iter().find(|ip| !is_public(**ip)) {
            Some(ip) => Err(format!("url resolves to {ip}, which is not a public address")),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_addresses_pass() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "224.0.0.1",
        ] {
            assert!(!is_public(private.parse().unwrap()), "{private} passed");
        }
        for public in ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:1.1.1.1"] {
            assert!(is_public(public.parse().unwrap()), "{public} was refused");
        }
    }
}
