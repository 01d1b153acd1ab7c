//! Codes carriers send that carry their own rules: a UN/LOCODE's country part is an
//! ISO 3166-1 country (or `XZ`, UN/LOCODE's code for places outside any country), and an
//! IMO ship number ends in its check digit. A value that breaks its rule is not stored as
//! truth (the container number's rules are `ContainerNumber`'s).

/// Checks a UN/LOCODE: two letters of an ISO 3166-1 country (or `XZ`) and three letters or
/// digits 2–9.
///
/// # Errors
/// What is wrong, in a sentence.
pub fn check_locode(text: &str) -> Result<(), String> {
    let bytes = text.as_bytes();
    if bytes.len() != 5
        || !bytes[..2].iter().all(u8::is_ascii_uppercase)
        || !bytes[2..]
            .iter()
            .all(|b| b.is_ascii_uppercase() || (b'2'..=b'9').contains(b))
    {
        return Err(format!(
            "UN/LOCODE {text:?} is not 2 letters and 3 letters or digits"
        ));
    }
    let country = &text[..2];
    if country != "XZ" && celes::Country::from_alpha2(country).is_err() {
        return Err(format!(
            "UN/LOCODE {text:?} names no country: {country} is not an ISO 3166 code"
        ));
    }
    Ok(())
}

/// Checks an IMO ship number: seven digits, the last the check digit (the first six
/// weighted 7 to 2, summed, modulo 10), and not an obvious placeholder (one digit repeated,
/// or a run such as `1234567`, which happens to pass the check digit).
///
/// # Errors
/// What is wrong, in a sentence.
pub fn check_imo(text: &str) -> Result<(), String> {
    let digits: Vec<u32> = text.chars().filter_map(|c| c.to_digit(10)).collect();
    if digits.len() != 7 || text.len() != 7 {
        return Err(format!("IMO number {text:?} is not seven digits"));
    }
    let sum: u32 = digits[..6]
        .iter()
        .zip((2..=7).rev())
        .map(|(digit, weight)| digit * weight)
        .sum();
    let run = |step: i64| {
        digits
            .windows(2)
            .all(|pair| i64::from(pair[1]) - i64::from(pair[0]) == step)
    };
    if run(0) || run(1) || run(-1) {
        return Err(format!(
            "IMO number {text} is a placeholder, not a ship's number"
        ));
    }
    if sum % 10 != digits[6] {
        return Err(format!(
            "IMO number {text} fails its check digit (expected {})",
            sum % 10
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_locodes_pass_and_made_up_countries_do_not() {
        for locode in [
            "NLRTM", "CNSHA", "USLAX", "DEHAM", "SGSIN", "XZZZZ", "GBLGP",
        ] {
            assert_eq!(check_locode(locode), Ok(()), "{locode}");
        }
        for locode in ["XYABC", "QQRTM", "NLRT1", "nlrtm", "NLRTMX", "NL"] {
            assert!(check_locode(locode).is_err(), "{locode}");
        }
        assert!(check_locode("XYABC").is_err_and(|e| e.contains("ISO 3166")));
    }

    #[test]
    fn imo_numbers_carry_their_check_digit() {
        // Published: Ever Given 9811000, Emma Maersk 9321483, MSC Gülsün 9839430.
        for imo in ["9811000", "9321483", "9839430"] {
            assert_eq!(check_imo(imo), Ok(()), "{imo}");
        }
        for imo in ["9811001", "981100", "98110000", "98110O0"] {
            assert!(check_imo(imo).is_err(), "{imo}");
        }
        // 1234567 passes the check digit (77 ends in 7) but names no ship.
        for placeholder in ["1234567", "0000000", "7777777", "7654321"] {
            assert!(
                check_imo(placeholder).is_err_and(|e| e.contains("placeholder")),
                "{placeholder}"
            );
        }
    }
}
