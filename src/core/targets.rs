//! Where the server may send a request of its own (a webhook's delivery): an http or https URL
//! whose host is none of this machine's, its network's or its cloud's own addresses. A receiver on
//! a private network is refused unless the operator allows it (`serve --webhooks-allow-private`).
//! The URL is checked when it is saved (its name resolved then) and again at every delivery, after
//! the name is resolved, by the resolver the deliveries connect through: a name that later points
//! inside is refused then too.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

pub const URL_REQUIRED: &str = "URL is required";
pub const URL_SCHEME: &str = "URL must be an http or https address";
pub const URL_TOO_LONG: &str = "URL must be at most 2000 characters";
pub const URL_FORBIDDEN: &str = "URL must not point to a loopback, private, link-local or metadata address";
pub const URL_UNRESOLVED: &str = "URL's host does not resolve";
pub const URL_MAX_CHARS: usize = 2000;

/// How long a name may take to resolve.
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);

/// Whether a request to `ip` would reach this machine, its private network, a link-local or
/// cloud metadata service, or no single host at all (unspecified, broadcast, multicast, reserved).
pub fn forbidden(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => forbidden_v6(v6),
    }
}

fn forbidden_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local() // 169.254.0.0/16, the metadata services' 169.254.169.254 among them
        || ip.is_broadcast()
        || ip.is_multicast()
        || a == 0
        || (a == 100 && (64..128).contains(&b)) // shared address space (100.64.0.0/10), Alibaba's metadata
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
        || (a == 198 && (18..20).contains(&b)) // benchmarking
        || a >= 240 // reserved
}

fn forbidden_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return forbidden_v4(v4);
    }
    let segments = ip.segments();
    // NAT64 (64:ff9b::/96) reaches the IPv4 address it embeds.
    if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        let [.., hi, lo] = segments;
        return forbidden_v4(Ipv4Addr::new((hi >> 8) as u8, hi as u8, (lo >> 8) as u8, lo as u8));
    }
    ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        || (segments[0] & 0xfe00) == 0xfc00 // unique local, AWS's fd00:ec2::254 among them
        || (segments[0] & 0xffc0) == 0xfe80 // link-local
        || (segments[0] & 0xffc0) == 0xfec0 // site-local (deprecated, still routed inside)
        || segments[..6] == [0, 0, 0, 0, 0, 0] // IPv4-compatible (deprecated)
}

/// A URL the server may send to, read from what the operator typed, or the message saying why not
/// (the field is `url`). Its name is resolved here: a name that does not resolve, or resolves to
/// an address [`forbidden`] names, is refused unless `allow_private`.
pub async fn check(text: &str, allow_private: bool) -> Result<url::Url, &'static str> {
    let url = parse(text)?;
    if allow_private {
        return Ok(url);
    }
    match url.host() {
        Some(url::Host::Ipv4(ip)) if forbidden_v4(ip) => Err(URL_FORBIDDEN),
        Some(url::Host::Ipv6(ip)) if forbidden_v6(ip) => Err(URL_FORBIDDEN),
        Some(url::Host::Domain(name)) => {
            let addresses = resolve(name, url.port_or_known_default().unwrap_or(443)).await?;
            if addresses.iter().any(|address| forbidden(address.ip())) { Err(URL_FORBIDDEN) } else { Ok(url) }
        }
        _ => Ok(url),
    }
}

/// The URL as typed, checked for its form alone: http or https, a host, at most 2000 characters.
pub fn parse(text: &str) -> Result<url::Url, &'static str> {
    let text = text.trim();
    if text.is_empty() {
        return Err(URL_REQUIRED);
    }
    if text.chars().count() > URL_MAX_CHARS {
        return Err(URL_TOO_LONG);
    }
    let url = url::Url::parse(text).map_err(|_| URL_SCHEME)?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return Err(URL_SCHEME);
    }
    Ok(url)
}

/// Whether the URL names its host by an address [`forbidden`] names (a name is checked when it is
/// resolved).
pub fn names_forbidden_address(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => forbidden_v4(ip),
        Some(url::Host::Ipv6(ip)) => forbidden_v6(ip),
        _ => false,
    }
}

/// The addresses of `name`, within the time allowed.
pub async fn resolve(name: &str, port: u16) -> Result<Vec<SocketAddr>, &'static str> {
    match tokio::time::timeout(RESOLVE_TIMEOUT, tokio::net::lookup_host((name, port))).await {
        Ok(Ok(found)) => {
            let found: Vec<SocketAddr> = found.collect();
            if found.is_empty() { Err(URL_UNRESOLVED) } else { Ok(found) }
        }
        _ => Err(URL_UNRESOLVED),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_addresses_are_forbidden_and_public_ones_are_not() {
        for inside in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.100.100.200",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fe80::1",
            "fd00:ec2::254",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a9fe:a9fe",
        ] {
            assert!(forbidden(inside.parse().unwrap()), "{inside} must be forbidden");
        }
        for outside in ["8.8.8.8", "93.184.215.14", "2606:4700::1111", "::ffff:8.8.8.8", "100.128.0.1"] {
            assert!(!forbidden(outside.parse().unwrap()), "{outside} must be allowed");
        }
    }

    #[test]
    fn only_http_and_https_urls_with_a_host_are_read() {
        assert_eq!(parse("  ").unwrap_err(), URL_REQUIRED);
        for wrong in ["ftp://example.com/", "file:///etc/passwd", "example.com/hook", "http://", "javascript:alert(1)"]
        {
            assert_eq!(parse(wrong).unwrap_err(), URL_SCHEME, "{wrong}");
        }
        assert_eq!(parse(&format!("https://example.com/{}", "a".repeat(2000))).unwrap_err(), URL_TOO_LONG);
        assert_eq!(parse(" https://example.com/hook ").unwrap().as_str(), "https://example.com/hook");
    }

    #[tokio::test]
    async fn a_name_or_address_inside_is_refused_unless_allowed() {
        assert_eq!(check("http://127.0.0.1:9/x", false).await.unwrap_err(), URL_FORBIDDEN);
        assert_eq!(check("http://[::1]/x", false).await.unwrap_err(), URL_FORBIDDEN);
        assert_eq!(check("http://localhost/x", false).await.unwrap_err(), URL_FORBIDDEN);
        assert_eq!(check("http://169.254.169.254/latest/meta-data", false).await.unwrap_err(), URL_FORBIDDEN);
        assert!(check("http://127.0.0.1:9/x", true).await.is_ok());
        assert_eq!(check("https://no-such-host.invalid/x", false).await.unwrap_err(), URL_UNRESOLVED);
    }
}
