//! A tiny HTTP/1.1 client for the tests: exact control over methods, headers and bodies
//! (missing Content-Type, chunked bodies, oversized bodies) without a client library.
#![allow(dead_code)]

pub mod process;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// An answer: status, headers (lower-case names) and body.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn headers_named(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }
}

/// A keep-alive connection.
pub struct Connection {
    reader: BufReader<TcpStream>,
}

impl Connection {
    pub fn open(address: SocketAddr) -> Connection {
        let stream = TcpStream::connect(address).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        Connection {
            reader: BufReader::new(stream),
        }
    }

    /// Sends raw bytes (a whole request) and reads one answer.
    pub fn raw(&mut self, request: &[u8]) -> Answer {
        self.reader.get_mut().write_all(request).expect("write");
        self.read_answer(request.starts_with(b"HEAD "))
    }

    /// A request with the given extra header lines (each `Name: value`).
    pub fn request(&mut self, method: &str, path: &str, headers: &[&str], body: &[u8]) -> Answer {
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: test\r\n");
        for header in headers {
            head.push_str(header);
            head.push_str("\r\n");
        }
        if !body.is_empty() || method == "POST" {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        self.raw(&bytes)
    }

    /// `POST /` with a form body and the usual content type.
    pub fn post(&mut self, body: &str) -> Answer {
        self.request(
            "POST",
            "/",
            &["Content-Type: application/x-www-form-urlencoded"],
            body.as_bytes(),
        )
    }

    fn read_answer(&mut self, head: bool) -> Answer {
        let mut status_line = String::new();
        self.reader
            .read_line(&mut status_line)
            .expect("status line");
        let status = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            self.reader.read_line(&mut line).expect("header");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (name, value) = line.split_once(':').expect("header colon");
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
        let length: usize = headers
            .iter()
            .find(|(n, _)| n == "content-length")
            .map(|(_, v)| v.parse().unwrap())
            .unwrap_or(0);
        let mut body = vec![0; if head { 0 } else { length }];
        self.reader.read_exact(&mut body).expect("body");
        Answer {
            status,
            headers,
            body: String::from_utf8(body).expect("utf-8 body"),
        }
    }
}

/// One request on a fresh connection.
pub fn post(address: SocketAddr, body: &str) -> Answer {
    Connection::open(address).post(body)
}

/// A form body for a bet_request or showdown with this JSON.
pub fn form(action: &str, game_state_json: &str) -> String {
    shared::protocol::encode_request(action.parse().unwrap(), Some(game_state_json))
}

/// The path of a fixture in this crate.
pub fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The 24 real captures, kept once for the whole workspace in `shared`'s fixtures.
pub fn captures_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/tests/fixtures/gamestates")
}

/// The JSON text of a capture whose file name starts with `prefix`.
pub fn capture(prefix: &str) -> String {
    let dir = captures_dir();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .collect();
    names.sort();
    std::fs::read_to_string(&names[0]).unwrap()
}
