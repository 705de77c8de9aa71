package app

import "testing"

// Every client of one account (service and key) shares one pace; a service on this computer
// is not paced unless its account asks; an account's own pace wins.
func TestOneServiceSharesOnePace(t *testing.T) {
	a := &App{}
	p1 := a.pacerFor("https://api.example.com", "k1", 0)
	p2 := a.pacerFor("https://api.example.com", "k1", 0)
	if p1 == nil || p1 != p2 {
		t.Fatal("two clients of one service should share its pacer")
	}
	if p1.Rate() != DefaultPace {
		t.Fatalf("the default pace is %v a second, want %v", p1.Rate(), DefaultPace)
	}
	if a.pacerFor("https://other.example.com", "k1", 0) == p1 {
		t.Fatal("another service has its own pace")
	}
	if a.pacerFor("https://api.example.com", "k2", 0) == p1 {
		t.Fatal("another key (account) on the same service has its own pace: a 429 for one must not hold the other")
	}
	for _, local := range []string{"http://127.0.0.1:8788", "http://localhost:9000", "http://[::1]:80"} {
		if a.pacerFor(local, "k1", 0) != nil {
			t.Fatalf("%s should not be paced by default", local)
		}
	}
	if p := a.pacerFor("http://127.0.0.1:8788", "k1", 3); p == nil || p.Rate() != 3 {
		t.Fatal("an account's own pace applies, on this computer too")
	}
	if a.pacerFor("https://api.example.com", "k1", -1) != nil {
		t.Fatal("a negative pace turns pacing off")
	}
}
