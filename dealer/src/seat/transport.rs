//! The transport side of an HTTP exchange: reading a response body through the cap, and
//! naming a transport failure precisely.

use super::connection::Connection;
use super::failure::{error_chain, one_line};
use super::SeatFailure;
use bytes::{Bytes, BytesMut};
use http_body_util::BodyExt;
use hyper::body::Incoming;
use std::error::Error as StdError;

/// Reads the body until its end, driving its connection, or fails with
/// [`SeatFailure::BodyTooLarge`] once more than `limit` bytes arrived (keeping the first
/// `limit`). `Ok` means the whole body was read: the connection can take another request.
pub(super) async fn read_capped(
    connection: &mut Connection,
    incoming: &mut Incoming,
    body: &mut BodyBuffer,
    limit: usize,
) -> Result<(), SeatFailure> {
    loop {
        match connection.drive(incoming.frame()).await {
            Some(Ok(frame)) => {
                // Trailers carry nothing a player's answer needs.
                let Ok(chunk) = frame.into_data() else {
                    continue;
                };
                if !body.push(chunk, limit) {
                    return Err(SeatFailure::BodyTooLarge { limit });
                }
            }
            None => {
                body.mark_complete();
                return Ok(());
            }
            Some(Err(error)) => return Err(classify(&error)),
        }
    }
}

/// The received body, at most the cap. A body that arrives in one chunk (the usual case) is
/// kept without copying.
#[derive(Default)]
pub(super) struct BodyBuffer {
    first: Option<Bytes>,
    more: Option<BytesMut>,
}

impl BodyBuffer {
    /// Appends `chunk`, keeping at most `limit` bytes in all; `false` when the cap was passed.
    pub(super) fn push(&mut self, chunk: Bytes, limit: usize) -> bool {
        let held = self.len();
        let room = limit.saturating_sub(held);
        let over = chunk.len() > room;
        let chunk = if over { chunk.slice(..room) } else { chunk };
        if let Some(more) = &mut self.more {
            more.extend_from_slice(&chunk);
        } else if let Some(first) = &self.first {
            let mut more = BytesMut::with_capacity(held + chunk.len());
            more.extend_from_slice(first);
            more.extend_from_slice(&chunk);
            self.more = Some(more);
        } else {
            self.first = Some(chunk);
        }
        !over
    }

    /// The body ended: an empty body is then `Some("")`, not "no body".
    pub(super) fn mark_complete(&mut self) {
        if self.first.is_none() {
            self.first = Some(Bytes::new());
        }
    }

    fn len(&self) -> usize {
        match (&self.more, &self.first) {
            (Some(more), _) => more.len(),
            (None, Some(first)) => first.len(),
            (None, None) => 0,
        }
    }

    pub(super) fn finish(self) -> Option<Bytes> {
        match (self.more, self.first) {
            (Some(more), _) => Some(more.freeze()),
            (None, first) => first,
        }
    }
}

/// Maps a transport error to the precise reason: the kinds that matter are found by walking
/// the error chain (hyper → io), never by matching message texts.
pub(super) fn classify(error: &(dyn StdError + 'static)) -> SeatFailure {
    let mut source: Option<&(dyn StdError + 'static)> = Some(error);
    while let Some(current) = source {
        if let Some(hyper_error) = current.downcast_ref::<hyper::Error>() {
            if hyper_error.is_incomplete_message() {
                return SeatFailure::ConnectionClosed;
            }
            if hyper_error.is_parse() || hyper_error.is_parse_status() {
                return SeatFailure::InvalidResponse(one_line(&hyper_error.to_string()));
            }
        }
        if let Some(io_error) = current.downcast_ref::<std::io::Error>() {
            use std::io::ErrorKind;
            match io_error.kind() {
                ErrorKind::ConnectionRefused => return SeatFailure::ConnectionRefused,
                ErrorKind::ConnectionReset
                | ErrorKind::ConnectionAborted
                | ErrorKind::BrokenPipe
                | ErrorKind::UnexpectedEof => return SeatFailure::ConnectionClosed,
                _ => {}
            }
        }
        source = current.source();
    }
    SeatFailure::Http(error_chain(error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_buffer_keeps_at_most_the_cap() {
        let mut one = BodyBuffer::default();
        assert!(one.push(Bytes::from_static(b"240"), 8));
        assert_eq!(one.finish().unwrap(), Bytes::from_static(b"240"));

        let mut split = BodyBuffer::default();
        assert!(split.push(Bytes::from_static(b"12"), 8));
        assert!(split.push(Bytes::from_static(b"34"), 8));
        assert!(!split.push(Bytes::from_static(b"56789"), 8));
        assert_eq!(split.finish().unwrap(), Bytes::from_static(b"12345678"));

        assert_eq!(BodyBuffer::default().finish(), None);
    }
}
