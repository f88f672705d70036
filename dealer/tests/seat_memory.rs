//! A player can never exhaust the dealer's memory: huge and endless bodies are not read, and an
//! endless response head stops at hyper's limit.
//!
//! This binary counts every byte the process allocates (a counting global allocator) and holds
//! a single test, so nothing else allocates while it measures.

use crate::support;

use dealer::seat::{HttpClient, HttpSettings, PlayerEndpoint};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use support::misbehaving::{spawn_player, Misbehaviour};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the counters are only
// bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
            PEAK.fetch_max(live, Ordering::SeqCst);
        }
        pointer
    }
    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { System.dealloc(pointer, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Far below the 10 MB a player sends; above hyper's read buffer (at most about 400 KiB).
const BUDGET: usize = 2 * 1024 * 1024;

#[tokio::test]
async fn huge_and_endless_answers_stay_within_a_small_memory_budget() {
    let client = HttpClient::new(HttpSettings::default()).unwrap();
    let state = shared::testing_state();
    for misbehaviour in [
        Misbehaviour::HugeBody {
            bytes: 10 * 1024 * 1024,
        },
        Misbehaviour::EndlessBody,
    ] {
        let player = spawn_player(misbehaviour.clone()).await;
        let seat = client.seat(PlayerEndpoint::parse(player.url()).unwrap());
        let before = LIVE.load(Ordering::SeqCst);
        PEAK.store(before, Ordering::SeqCst);
        let reply = seat.bet_request(&state).await;
        let growth = PEAK.load(Ordering::SeqCst) - before;
        assert_eq!(
            reply.failure().map(ToString::to_string).as_deref(),
            Some("body larger than 4096 bytes"),
            "{misbehaviour:?}"
        );
        assert!(
            growth < BUDGET,
            "{misbehaviour:?}: the dealer's memory grew by {growth} bytes"
        );
        eprintln!("{misbehaviour:?}: peak growth {growth} bytes");
        drop(reply);
        player.stop().await;
    }

    // An endless response head: hyper stops at its head size limit.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        static JUNK: [u8; 16 * 1024] = [b'a'; 16 * 1024];
        let (mut stream, _) = listener.accept().await.unwrap();
        let mut buffer = [0u8; 8192];
        let _ = stream.read(&mut buffer).await;
        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nx-junk: ").await;
        while stream.write_all(&JUNK).await.is_ok() {}
    });
    let seat = client.seat(PlayerEndpoint::parse(&url).unwrap());
    let before = LIVE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let reply = seat.bet_request(&state).await;
    let growth = PEAK.load(Ordering::SeqCst) - before;
    let reason = reply.failure().unwrap().to_string();
    assert!(reason.starts_with("invalid HTTP response: "), "{reason}");
    assert!(growth < BUDGET, "endless head: grew by {growth} bytes");
    eprintln!("endless head: peak growth {growth} bytes ({reason})");
    server.abort();
}
