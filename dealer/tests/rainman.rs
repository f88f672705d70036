//! The offline Rain Man (spec §8): `/rank` over GET and POST as the hosted service accepts
//! it, the evaluator's JSON, and a `400 Bad request: ...` for anything it cannot rank.

use dealer::rainman;
use reqwest::StatusCode;
use serde_json::Value;
use shared::eval::rain_man_rank_json;

const ROYAL: &str = r#"[{"rank":"A","suit":"spades"},{"rank":"K","suit":"spades"},{"rank":"Q","suit":"spades"},{"rank":"J","suit":"spades"},{"rank":"10","suit":"spades"},{"rank":"2","suit":"hearts"},{"rank":"3","suit":"clubs"}]"#;
const TWO_PAIR: &str = r#"[{"rank":"4","suit":"spades"},{"rank":"4","suit":"hearts"},{"rank":"9","suit":"clubs"},{"rank":"9","suit":"diamonds"},{"rank":"K","suit":"spades"}]"#;

struct Service {
    base: String,
    handle: actix_web::dev::ServerHandle,
}

async fn start() -> Service {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = rainman::serve(listener).unwrap();
    let handle = server.handle();
    tokio::spawn(server);
    Service { base, handle }
}

fn expected(cards: &str) -> Value {
    serde_json::to_value(rain_man_rank_json(cards).unwrap()).unwrap()
}

fn form(cards: &str) -> String {
    form_urlencoded::Serializer::new(String::new())
        .append_pair("cards", cards)
        .finish()
}

async fn answer(response: reqwest::Response) -> (StatusCode, String) {
    (response.status(), response.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_and_post_answer_rain_mans_json() {
    let service = start().await;
    let client = reqwest::Client::new();
    let url = format!("{}/rank", service.base);
    for cards in [ROYAL, TWO_PAIR] {
        let get = client
            .get(format!("{url}?{}", form(cards)))
            .send()
            .await
            .unwrap();
        assert_eq!(
            get.headers()["content-type"].to_str().unwrap(),
            "application/json"
        );
        let (status, body) = answer(get).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            expected(cards)
        );

        let post = client
            .post(&url)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form(cards))
            .send()
            .await
            .unwrap();
        let (status, body) = answer(post).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            expected(cards)
        );
    }
    // A POST with `cards` in the query string (Sinatra's params hold both), and with both:
    // the body's wins, as in Rack.
    let query_only = client
        .post(format!("{url}?{}", form(ROYAL)))
        .send()
        .await
        .unwrap();
    let (status, body) = answer(query_only).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        expected(ROYAL)
    );
    let both = client
        .post(format!("{url}?{}", form(ROYAL)))
        .body(form(TWO_PAIR))
        .send()
        .await
        .unwrap();
    let (_, body) = answer(both).await;
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        expected(TWO_PAIR)
    );
    let royal = expected(ROYAL);
    assert_eq!(royal["rank"], 8);
    assert_eq!(royal["value"], 14);
    service.handle.stop(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_card_lists_get_a_bad_request_never_a_crash() {
    let service = start().await;
    let client = reqwest::Client::new();
    let url = format!("{}/rank", service.base);
    let four = r#"[{"rank":"A","suit":"spades"},{"rank":"K","suit":"spades"},{"rank":"Q","suit":"spades"},{"rank":"J","suit":"spades"}]"#;
    let twice = r#"[{"rank":"A","suit":"spades"},{"rank":"A","suit":"spades"},{"rank":"Q","suit":"spades"},{"rank":"J","suit":"spades"},{"rank":"9","suit":"hearts"}]"#;
    let cases = [
        (Some(four), "Bad request: not enough cards"),
        (Some("[]"), "Bad request: not enough cards"),
        (Some(twice), "Bad request"),
        (Some("not json"), "Bad request: cards must be"),
        (
            Some(r#"[{"rank":"1","suit":"spades"}]"#),
            "Bad request: cards must be",
        ),
        (Some(r#"{"rank":"A"}"#), "Bad request: cards must be"),
        (Some("\u{0}\u{ffff}"), "Bad request: cards must be"),
        (None, "Bad request: the cards parameter is missing"),
    ];
    for (cards, reason) in cases {
        let query = cards.map(form).unwrap_or_default();
        let get = answer(client.get(format!("{url}?{query}")).send().await.unwrap()).await;
        let post = answer(client.post(&url).body(query.clone()).send().await.unwrap()).await;
        for (status, body) in [get, post] {
            assert_eq!(status, StatusCode::BAD_REQUEST, "{cards:?}: {body}");
            assert!(body.starts_with(reason), "{cards:?}: {body}");
        }
    }
    // A JSON body is not a form: `cards` is missing, as for the hosted service.
    let json = client
        .post(&url)
        .header("content-type", "application/json")
        .body(format!(r#"{{"cards":{ROYAL}}}"#))
        .send()
        .await
        .unwrap();
    assert_eq!(json.status(), StatusCode::BAD_REQUEST);
    let oversized = client
        .post(&url)
        .body(vec![b'a'; rainman::BODY_LIMIT + 1])
        .send()
        .await
        .unwrap();
    assert_eq!(oversized.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let elsewhere = client
        .get(format!("{}/other", service.base))
        .send()
        .await
        .unwrap();
    assert_eq!(elsewhere.status(), StatusCode::NOT_FOUND);
    // Still serving after all of that.
    let fine = client
        .get(format!("{url}?{}", form(ROYAL)))
        .send()
        .await
        .unwrap();
    assert_eq!(fine.status(), StatusCode::OK);
    service.handle.stop(true).await;
}
