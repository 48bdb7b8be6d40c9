//! Contacts as the networks deliver them: e-mail addresses and their
//! mailbox keys, phone numbers read in the tenant's jurisdiction (E.164).

use super::fields::is_upper_code;
use super::query::INVALID_FIELD;
use crate::error::ApiError;

/// Lower-cased, trimmed e-mail; `None` when it is not an address.
pub fn normalize_email(raw: &str) -> Option<String> {
    let email = raw.trim().to_lowercase();
    let (local, domain) = email.split_once('@')?;
    let ok = !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && email.len() <= 254
        && !email.chars().any(char::is_whitespace)
        && !domain.contains('@');
    ok.then_some(email)
}

/// The version of the contact keys ([`email_key`], [`Phone::key`]): a row
/// keyed under an older one is re-keyed by the scheduled work
/// (`exclusions::rekey_contacts`), and matched by its stored form until then.
pub const CONTACT_KEYS_VERSION: i64 = 1;

/// Why a phone number is not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhoneError {
    /// not the shape of a phone number: a letter, or fewer than 7 or more than 15 digits (400 `invalid_field`)
    NotAPhone,
    /// the shape of one, but libphonenumber cannot read it as a number in the
    /// region, or, with no region, as an international number (422 [`UNREADABLE_PHONE`])
    Unreadable,
}

/// The code of a phone number that has the shape of one but cannot be read
/// as a number (in the tenant's jurisdiction's region, or internationally).
pub const UNREADABLE_PHONE: &str = "unreadable_phone";

impl PhoneError {
    /// The API error for the field `name`.
    pub fn error(self, name: &str) -> ApiError {
        match self {
            PhoneError::NotAPhone => ApiError::bad_request(INVALID_FIELD, format!("{name} must be a phone number of 7 to 15 digits")),
            PhoneError::Unreadable => ApiError::unprocessable(UNREADABLE_PHONE, format!("{name} {}", PhoneError::UNREADABLE)),
        }
    }

    /// What an unreadable number is told, after the field's name.
    pub const UNREADABLE: &'static str = "cannot be read as a phone number: give it in international format (+ and the country code), or in the national format of the tenant's jurisdiction";
}

/// The region in which a tenant's jurisdiction reads a national-format
/// phone number: the profile's country (`GB`, `SE`, `DE`, `NL`; `CA` for
/// `CA-ON`); none for `default`, whose numbers must be international.
pub fn phone_region(jurisdiction: &str) -> Option<phonenumber::country::Id> {
    let country = jurisdiction.split('-').next().unwrap_or_default();
    if !is_upper_code(country, 2) {
        return None;
    }
    country.parse().ok()
}

/// A phone number as libphonenumber reads it: stored and compared as E.164.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phone {
    /// `+447700900123`
    e164: String,
}

impl Phone {
    /// What is compared: E.164 (`+447700900123`).
    pub fn key(&self) -> &str {
        &self.e164
    }

    /// What is stored and shown: E.164's digits, the form the API always
    /// showed for an international number (`447700900123`), and the form
    /// rows of before the contact keys hold (matched until re-keyed).
    pub fn digits(&self) -> &str {
        self.e164.trim_start_matches('+')
    }
}

/// Reads a phone number with libphonenumber's rules (`docs/decisions.md`,
/// "phone numbers"). The separators space ( ) . - are allowed; a trunk `(0)`
/// written after the country code is not dialled (`+44 (0)7700 900123`).
/// With `+` or `00` it is international in any region; without, it is read
/// in `region`, the tenant's jurisdiction (`07700 900123` in GB, and the
/// region's own country code before a national number, `447700900123` in
/// GB, as libphonenumber reads them). With no region, digits without a
/// prefix are international as they always were (`447700900123`), and a
/// national number (a leading trunk `0`) cannot be read: it is refused, never
/// kept as a key no international form of the number would find.
pub fn read_phone(raw: &str, region: Option<phonenumber::country::Id>) -> Result<Phone, PhoneError> {
    let trimmed = raw.trim();
    if trimmed.chars().any(|c| !(c.is_ascii_digit() || " +-().".contains(c))) {
        return Err(PhoneError::NotAPhone);
    }
    let compact: String = trimmed.chars().filter(|c| !" -.".contains(*c)).collect();
    // the `(0)` right after `+` or `00` and a country code of one to three digits
    let after_country_code = |head: &str| {
        let code = head.strip_prefix('+').or_else(|| head.strip_prefix("00")).unwrap_or("");
        (1..=3).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_digit())
    };
    let dialled = match compact.find("(0)") {
        Some(at) if after_country_code(&compact[..at]) => format!("{}{}", &compact[..at], &compact[at + 3..]),
        _ => compact,
    };
    let digits: String = dialled.chars().filter(char::is_ascii_digit).collect();
    let international = dialled.starts_with('+') || dialled.starts_with("00");
    let significant = if dialled.starts_with("00") { &digits[2..] } else { &digits[..] };
    if !(7..=15).contains(&significant.len()) || dialled.matches('+').count() > usize::from(dialled.starts_with('+')) {
        return Err(PhoneError::NotAPhone);
    }
    let number = match (international, region) {
        (true, _) => phonenumber::parse(None, format!("+{significant}")),
        (false, Some(region)) => phonenumber::parse(Some(region), &digits),
        (false, None) if !digits.starts_with('0') => phonenumber::parse(None, format!("+{digits}")),
        (false, None) => return Err(PhoneError::Unreadable),
    }
    .map_err(|_| PhoneError::Unreadable)?;
    let e164 = number.format().mode(phonenumber::Mode::E164).to_string();
    possible(&number, &e164).then_some(Phone { e164 }).ok_or(PhoneError::Unreadable)
}

/// Whether the national number has a length the country's numbers have
/// (libphonenumber's possible lengths): a number cut short, or run on, is
/// not read as some other number of that country.
fn possible(number: &phonenumber::PhoneNumber, e164: &str) -> bool {
    let code = number.code().value();
    let national = e164.len().saturating_sub(1 + code.to_string().len());
    let Some(regions) = phonenumber::metadata::DATABASE.by_code(&code) else { return false };
    let Ok(national) = u16::try_from(national) else { return false };
    // the metadata keeps the lengths by type of number (the general ones are empty)
    regions.into_iter().any(|m| {
        let d = m.descriptors();
        let types = [
            d.fixed_line(),
            d.mobile(),
            d.toll_free(),
            d.premium_rate(),
            d.shared_cost(),
            d.personal_number(),
            d.voip(),
            d.pager(),
            d.uan(),
            d.voicemail(),
        ];
        types.into_iter().flatten().any(|t| t.possible_length().contains(&national))
    })
}

/// The key an e-mail address ([`normalize_email`]'s form) is compared by:
/// the domain in IDNA's ASCII form (UTS #46), so a Unicode domain and its
/// punycode are one key, and the local part folded by its provider's alias
/// rules ([`MAILBOX_ALIASES`]); any other address as delivered.
pub fn email_key(email: &str) -> String {
    let Some((local, domain)) = email.rsplit_once('@') else { return email.to_string() };
    // a domain IDNA refuses is kept as given (lower-cased): it matches as before
    let domain = idna::domain_to_ascii(domain).ok().filter(|d| !d.is_empty()).unwrap_or_else(|| domain.to_string());
    let Some(provider) = MAILBOX_ALIASES.iter().find(|p| p.domains.contains(&domain.as_str())) else {
        return format!("{local}@{domain}");
    };
    let mut local = local;
    if provider.plus_tags {
        local = local.split_once('+').map_or(local, |(mailbox, _)| mailbox);
    }
    let local = if provider.dots_ignored { local.replace('.', "") } else { local.to_string() };
    let domain = provider.domains.first().copied().unwrap_or_default();
    format!("{local}@{domain}")
}

/// A mail provider's documented rule of which addresses reach one mailbox.
pub struct MailboxAliases {
    /// the provider's domains that are one mailbox per local part, the first the one keys use
    pub domains: &'static [&'static str],
    /// dots in the local part are not part of the mailbox
    pub dots_ignored: bool,
    /// `mailbox+tag` is delivered to `mailbox`
    pub plus_tags: bool,
}

/// The providers whose own documentation says which addresses are one
/// mailbox; every other address compares as delivered (`a.b@example.com`
/// is not `ab@example.com`). Sources (`docs/decisions.md`, "e-mail keys"):
/// - Gmail: Google's Gmail Help, "Dots don't matter in Gmail addresses"
///   (dots), "Create task-specific email addresses" (`+tag`), and that
///   `@googlemail.com` and `@gmail.com` are the same account (Gmail Help,
///   "Why does my address say googlemail.com").
/// - Fastmail: Fastmail Help, "Plus addressing and subdomain addressing"
///   (fastmail.help/hc/en-us/articles/360060591053): the part between the `+`
///   and the `@` is ignored for determining which account it belongs to.
///   Only Fastmail's own main domains are listed; its many other domains,
///   and custom domains, compare as delivered.
/// - Proton: Proton Support, "Types of email addresses and aliases"
///   (proton.me/support/addresses-and-aliases): "+aliases", unlimited extra
///   addresses with `+` after the username. Its domains are separate
///   addresses (`@pm.me` is an address of its own), so each is its own domain here.
///
/// Not listed, for want of a provider's document found to cite: Outlook,
/// Hotmail and Live (Microsoft documents plus addressing for Exchange Online
/// organisations, not for consumer Outlook.com addresses) and iCloud.
pub const MAILBOX_ALIASES: &[MailboxAliases] = &[
    MailboxAliases { domains: &["gmail.com", "googlemail.com"], dots_ignored: true, plus_tags: true },
    MailboxAliases { domains: &["fastmail.com"], dots_ignored: false, plus_tags: true },
    MailboxAliases { domains: &["fastmail.fm"], dots_ignored: false, plus_tags: true },
    MailboxAliases { domains: &["proton.me"], dots_ignored: false, plus_tags: true },
    MailboxAliases { domains: &["protonmail.com"], dots_ignored: false, plus_tags: true },
    MailboxAliases { domains: &["protonmail.ch"], dots_ignored: false, plus_tags: true },
    MailboxAliases { domains: &["pm.me"], dots_ignored: false, plus_tags: true },
];
