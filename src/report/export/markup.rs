//! The one escaper of the markup languages: HTML (report.html, the HTML export) and XML (JUnit).
//! Both escape the five markup characters (HTML element content needs only `&`, `<`, `>`); they
//! differ only where their readers do.

/// Which language the text goes into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Markup {
    /// Element content and quoted attributes of HTML: line breaks stay (a `<pre>` shows them);
    /// the apostrophe as `&#39;`, which every HTML version reads.
    Html,
    /// HTML element content only (no attribute): quotes stay as they are, as the page has always
    /// written a game's section heading ("Hold'em").
    HtmlText,
    /// XML 1.0 character data or attribute values: line breaks, tabs and returns as character
    /// references (an attribute would fold them into spaces otherwise), the control characters
    /// XML does not allow replaced (a bot's or a gate's name may hold anything).
    Xml,
}

/// `text` escaped for `markup`.
pub fn escape(text: &str, markup: Markup) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match (c, markup) {
            ('&', _) => out.push_str("&amp;"),
            ('<', _) => out.push_str("&lt;"),
            ('>', _) => out.push_str("&gt;"),
            ('"' | '\'', Markup::HtmlText) => out.push(c),
            ('"', _) => out.push_str("&quot;"),
            ('\'', Markup::Html) => out.push_str("&#39;"),
            ('\'', Markup::Xml) => out.push_str("&apos;"),
            ('\n' | '\t' | '\r', Markup::Xml) => out.push_str(&format!("&#{};", c as u32)),
            (c, Markup::Xml) if c.is_control() => out.push('\u{fffd}'),
            (c, _) => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_escapes_what_html_reads_as_markup() {
        assert_eq!(escape(r#"<b>"a" & 'b'</b>"#, Markup::Html), "&lt;b&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/b&gt;");
        assert_eq!(escape("plain 中文\nline", Markup::Html), "plain 中文\nline");
        assert_eq!(escape(r#"<b>"a" & 'b'</b>"#, Markup::HtmlText), "&lt;b&gt;\"a\" &amp; 'b'&lt;/b&gt;");
    }

    #[test]
    fn xml_escapes_markup_and_control_characters() {
        assert_eq!(escape("a<b & \"c\" 'd'>", Markup::Xml), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
        assert_eq!(escape("x\u{1}y\nz\t", Markup::Xml), "x\u{fffd}y&#10;z&#9;");
    }
}
