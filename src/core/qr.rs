//! QR codes for authenticator enrolment: a PNG data URL for the browser and text for terminals.

use base64::Engine;
use qrcode::render::unicode::Dense1x2;
use qrcode::{Color, QrCode};

const MODULE_PIXELS: usize = 6;
const QUIET_ZONE: usize = 4;

/// `data:image/png;base64,...` of `text` as a QR code.
pub fn png_data_url(text: &str) -> anyhow::Result<String> {
    let code = QrCode::new(text.as_bytes())?;
    let modules = code.width();
    let colors = code.to_colors();
    let side = (modules + 2 * QUIET_ZONE) * MODULE_PIXELS;
    let mut pixels = vec![255u8; side * side];
    for (index, color) in colors.iter().enumerate() {
        if *color == Color::Dark {
            let (x, y) = (index % modules + QUIET_ZONE, index / modules + QUIET_ZONE);
            for row in y * MODULE_PIXELS..(y + 1) * MODULE_PIXELS {
                pixels[row * side + x * MODULE_PIXELS..row * side + (x + 1) * MODULE_PIXELS].fill(0);
            }
        }
    }
    let mut png_bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut png_bytes, side as u32, side as u32);
        encoder.set_color(png::ColorType::Grayscale);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.write_header()?.write_image_data(&pixels)?;
    }
    Ok(format!("data:image/png;base64,{}", base64::engine::general_purpose::STANDARD.encode(png_bytes)))
}

/// The QR code drawn with half-block characters, for `create-admin` and `demo`.
pub fn terminal(text: &str) -> anyhow::Result<String> {
    let code = QrCode::new(text.as_bytes())?;
    Ok(code.render::<Dense1x2>().dark_color(Dense1x2::Light).light_color(Dense1x2::Dark).quiet_zone(true).build())
}

#[cfg(test)]
mod tests {
    #[test]
    fn png_is_a_decodable_square_image() {
        let url =
            super::png_data_url("otpauth://totp/perkdesk:a%40b.az?secret=JBSWY3DPEHPK3PXP&issuer=perkdesk").unwrap();
        let encoded = url.strip_prefix("data:image/png;base64,").unwrap();
        let bytes = base64::Engine::decode(&base64::engine::general_purpose::STANDARD, encoded).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let reader = decoder.read_info().unwrap();
        let info = reader.info();
        assert_eq!(info.width, info.height);
        assert!(info.width >= 150);
    }

    #[test]
    fn terminal_rendering_has_rows() {
        let text = super::terminal("otpauth://totp/x").unwrap();
        assert!(text.lines().count() > 10);
    }
}
