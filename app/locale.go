package app

import (
	"strconv"
	"strings"
	"time"
)

// Dates, times and numbers as the language in use writes them; every date
// and number a screen shows goes through these.

// calendar is a language's month and weekday names.
type calendar struct {
	months, monthsShort, days [12]string // days: Sunday first, 7 used
	of                        string     // "janeiro de 2026": the word between month and year
}

var calendars = map[string]calendar{
	"en": {
		months:      [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
		monthsShort: [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"},
		days:        [12]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"},
	},
	"pt-BR": {
		months:      [12]string{"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"},
		monthsShort: [12]string{"jan.", "fev.", "mar.", "abr.", "mai.", "jun.", "jul.", "ago.", "set.", "out.", "nov.", "dez."},
		days:        [12]string{"dom.", "seg.", "ter.", "qua.", "qui.", "sex.", "sáb."},
		of:          "de",
	},
	"es": {
		months:      [12]string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
		monthsShort: [12]string{"ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"},
		days:        [12]string{"dom", "lun", "mar", "mié", "jue", "vie", "sáb"},
		of:          "de",
	},
}

func cal() calendar {
	if c, ok := calendars[LanguageInUse()]; ok {
		return c
	}
	return calendars["en"]
}

// Date is a day: "2 Jan 2026", in local time.
func Date(t time.Time) string {
	t = t.Local()
	return strconv.Itoa(t.Day()) + " " + cal().monthsShort[t.Month()-1] + " " + strconv.Itoa(t.Year())
}

// DateTime is a day and the time of day, in local time.
func DateTime(t time.Time) string { return Date(t) + " " + t.Local().Format("15:04") }

// DayDate is a day with its weekday, for days already in local time.
func DayDate(t time.Time) string {
	return cal().days[t.Weekday()] + " " + strconv.Itoa(t.Day()) + " " + cal().monthsShort[t.Month()-1] + " " + strconv.Itoa(t.Year())
}

// ShortDateTime is a day of this year and the time: "2 Jan 15:04".
func ShortDateTime(t time.Time) string {
	t = t.Local()
	return strconv.Itoa(t.Day()) + " " + cal().monthsShort[t.Month()-1] + " " + t.Format("15:04")
}

// MonthYear is a month: "June 2024", "junho de 2024".
func MonthYear(t time.Time) string {
	c := cal()
	s := c.months[t.Month()-1] + " "
	if c.of != "" {
		s += c.of + " "
	}
	return s + strconv.Itoa(t.Year())
}

// decimalComma tells the languages that write 1.234,5 rather than 1,234.5.
func decimalComma() bool { l := LanguageInUse(); return l == "pt-BR" || l == "es" }

// Number is a whole number with its thousands marked: 12,345 or 12.345.
func Number(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	sep := ","
	if decimalComma() {
		sep = "."
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// decimal writes a point-formatted figure as the language does.
func decimal(s string) string {
	if decimalComma() {
		return strings.Replace(s, ".", ",", 1)
	}
	return s
}

// CreditsFigure is CreditsNumber as the language writes numbers, for screens
// (files keep the point).
func CreditsFigure(v float64) string { return decimal(CreditsNumber(v)) }
