//! Offline Rain Man throughput: one `/rank` request over a persistent loopback connection,
//! side by side with a plain HTTP round trip to the same server (a route that answers a fixed
//! body of the same size without evaluating anything) and with the evaluator alone. The
//! evaluator must not be the limit: `/rank` should cost about what the plain round trip does.
//!
//! `cargo bench -p lean-poker-dealer --bench rainman`

use actix_web::{web, App, HttpResponse, HttpServer};
use criterion::{criterion_group, criterion_main, Criterion};
use shared::eval::rain_man_rank_json;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

const CARDS: &str = r#"[{"rank":"A","suit":"spades"},{"rank":"K","suit":"hearts"},{"rank":"Q","suit":"spades"},{"rank":"J","suit":"diamonds"},{"rank":"9","suit":"spades"},{"rank":"9","suit":"hearts"},{"rank":"3","suit":"clubs"}]"#;

/// Starts the service (with a `/plain` route beside `/rank`) on its own thread and runtime,
/// as a separate process would run it.
fn start(plain_body: String) -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let address = listener.local_addr().expect("its address");
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let server = HttpServer::new(move || {
                let body = plain_body.clone();
                App::new().configure(dealer::rainman::configure).route(
                    "/plain",
                    web::get().to(move || {
                        let body = body.clone();
                        async move {
                            HttpResponse::Ok()
                                .content_type("application/json")
                                .body(body)
                        }
                    }),
                )
            })
            .workers(1)
            // The connection idles while the evaluator alone is measured and analysed, longer
            // than actix's 5 s default on a loaded machine; it must still be open after.
            .keep_alive(std::time::Duration::from_secs(120))
            .disable_signals()
            .listen(listener)
            .expect("listen")
            .run();
            let _ = server.await;
        });
    });
    address
}

/// One request on a persistent connection; returns the body's length.
fn round_trip(stream: &mut TcpStream, request: &[u8], buffer: &mut Vec<u8>) -> usize {
    stream.write_all(request).expect("write");
    buffer.clear();
    let mut chunk = [0u8; 4096];
    loop {
        let read = stream.read(&mut chunk).expect("read");
        assert!(read > 0, "the server closed the connection");
        buffer.extend_from_slice(&chunk[..read]);
        let mut headers = [httparse::EMPTY_HEADER; 16];
        let mut response = httparse::Response::new(&mut headers);
        if let Ok(httparse::Status::Complete(head)) = response.parse(buffer) {
            assert_eq!(response.code, Some(200));
            let length: usize = response
                .headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case("content-length"))
                .and_then(|h| std::str::from_utf8(h.value).ok()?.parse().ok())
                .expect("a content length");
            if buffer.len() >= head + length {
                return length;
            }
        }
    }
}

fn rain_man(c: &mut Criterion) {
    let answer = serde_json::to_string(&rain_man_rank_json(CARDS).unwrap()).unwrap();
    let address = start(answer.clone());
    let query: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("cards", CARDS)
        .finish();
    let rank = format!("GET /rank?{query} HTTP/1.1\r\nHost: {address}\r\n\r\n");
    // The same request line length, so both requests cost the same to send and parse.
    let padding = "x".repeat(query.len().saturating_sub(2));
    let plain = format!("GET /plain?p={padding} HTTP/1.1\r\nHost: {address}\r\n\r\n");
    let mut stream = TcpStream::connect(address).expect("connect");
    stream.set_nodelay(true).expect("nodelay");
    let mut buffer = Vec::with_capacity(4096);
    assert_eq!(
        round_trip(&mut stream, rank.as_bytes(), &mut buffer),
        answer.len()
    );

    let mut group = c.benchmark_group("rain_man");
    group.bench_function("evaluator only", |b| {
        b.iter(|| serde_json::to_string(&rain_man_rank_json(CARDS).unwrap()).unwrap())
    });
    group.bench_function("GET /rank round trip", |b| {
        b.iter(|| round_trip(&mut stream, rank.as_bytes(), &mut buffer))
    });
    group.bench_function("plain HTTP round trip", |b| {
        b.iter(|| round_trip(&mut stream, plain.as_bytes(), &mut buffer))
    });
    group.finish();
}

criterion_group!(benches, rain_man);
criterion_main!(benches);
