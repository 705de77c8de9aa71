package app

import (
	"testing"
	"time"
)

func TestCreditsWording(t *testing.T) {
	cases := map[float64]string{
		0:         "0 credits",
		0.04:      "0.04 credits",
		0.0125:    "0.0125 credits",
		0.00004:   "0 credits", // below what the service charges
		1:         "1 credit",
		1.5:       "1.5 credits",
		12:        "12 credits",
		0.1 + 0.2: "0.3 credits", // sums of floats do not show their rounding
	}
	for v, want := range cases {
		if got := Credits(v); got != want {
			t.Errorf("Credits(%v) = %q, want %q", v, got, want)
		}
	}
	if got := CreditsNumber(0.04); got != "0.04" {
		t.Errorf("CreditsNumber(0.04) = %q", got)
	}
}

func TestHowLongWording(t *testing.T) {
	cases := map[time.Duration]string{
		200 * time.Millisecond:      "0.2 seconds",
		time.Second:                 "1 second",
		1500 * time.Millisecond:     "1.5 seconds",
		12400 * time.Millisecond:    "12 seconds",
		90 * time.Second:            "1 minute 30 seconds",
		2 * time.Minute:             "2 minutes",
		121 * time.Second:           "2 minutes 1 second",
		10 * time.Millisecond:       "less than a second",
		2*time.Hour + 5*time.Minute: "2 hours 5 minutes",
	}
	for d, want := range cases {
		if got := HowLong(d); got != want {
			t.Errorf("HowLong(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestPreviewDropsMarkup(t *testing.T) {
	cases := map[string]string{
		"# Monthly Newsletter and Topics\n\nThis is an overview.": "Monthly Newsletter and Topics",
		"**Done.** The report is *ready*.\nSecond line":           "Done. The report is ready.",
		"\n\n- first point\n- second point":                       "first point",
		"> quoted `code` and [a link](https://example.com)":       "quoted code and a link",
		"```\nSELECT 1;\nSELECT 2;\n```":                          "SELECT 1;",
		"plain text":                                              "plain text",
		"Costs \\$5 &amp; more":                                   "Costs $5 & more",
		"```\n\nSELECT 1;\n```":                                   "SELECT 1;",
		"":                                                        "",
	}
	for in, want := range cases {
		if got := Preview(in); got != want {
			t.Errorf("Preview(%q) = %q, want %q", in, got, want)
		}
	}
}

// A column of credits lines up: every figure has the same decimals.
func TestCreditsColumnLinesUp(t *testing.T) {
	if got := CreditsColumn(-0.00001); got != "0.0000 credits" {
		t.Fatalf("a refund too small to show reads %q", got)
	}
	a, b := CreditsColumn(0.001), CreditsColumn(0.0011)
	if a != "0.0010 credits" || len(a) != len(b) {
		t.Fatalf("CreditsColumn gives %q and %q", a, b)
	}
}
