package demoservice

import (
	"fmt"
	"strings"
)

// RichReply is a long reply using everything agents write (code, tables,
// quotes, footnotes, raw HTML, mixed scripts), sent when a chat asks for
// code, a table or a long answer.
func RichReply() string {
	var b strings.Builder
	b.WriteString("# Quarterly budget review\n\nHere is the **full review** you asked for, with ~~last year's~~ this year's figures, a table, the script that builds the summary[^1] and notes in every office's language. Fish &amp; chips cost &lt;£10&gt; &copy; 2026.\n\n")
	b.WriteString("## What changed\n\n")
	b.WriteString("1. Travel\n   - Flights cost **12 %** more than planned\n     - most of it on short trips\n     - a few late bookings\n   - Hotels stayed within the budget\n2. Office\n\n   Supplies were cheaper after the new contract.\n\n3. People\n   - [x] Hiring plan approved\n   - [ ] Training budget to confirm\n\n")
	b.WriteString("> **Note** — the figures below are before tax.\n> Ask the finance team for the final numbers.\n\n")
	b.WriteString("## Figures by team\n\n| Team | Owner | Budget (€) | Spent (€) | Notes |\n|:-----|:-----:|----------:|----------:|-------|\n")
	teams := []string{"Sales", "Marketing", "Finance", "Support", "Research", "Legal"}
	for i, t := range teams {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s |\n", t, []string{"Ana", "Bruno", "Chen", "Dana", "Eli", "Farah"}[i], 120000+i*15000, 98000+i*17000,
			[]string{"On track", "Two campaigns moved to Q3 \\| see plan", "Audit fees paid early; the rest of the year is expected to stay within the plan agreed in January", "`tickets \\| calls` merged", "New lab equipment", "—"}[i])
	}
	b.WriteString("\n## The script\n\nRun it from the shared folder:\n\n```python\n")
	for i := 1; i <= 60; i++ {
		switch {
		case i == 1:
			b.WriteString("import csv  # reads the export of every team\n")
		case i%10 == 0:
			fmt.Fprintf(&b, "    print(f\"team {team:<12} spent {spent:>10,.2f} of {budget:>10,.2f} — {spent / budget:.0%%} used, line %d\")\n", i)
		default:
			fmt.Fprintf(&b, "    total_%02d = sum(float(row[\"spent\"]) for row in rows if row[\"team\"] == team)\n", i)
		}
	}
	b.WriteString("```\n\n")
	b.WriteString("## In every office\n\n- 中文：预算审查已完成，所有团队都在计划之内。\n- 日本語：予算の見直しが完了しました。🎉\n- العربية: اكتملت مراجعة الميزانية، وجميع الفرق ضمن الخطة.\n- עברית: סקירת התקציב הושלמה, כל הצוותים במסגרת התוכנית.\n- Emoji: ✅ 📊 💶 🚀\n\n")
	b.WriteString("Some raw HTML the agent wrote, shown as text: <b>bold?</b> <script>alert('no')</script>\n\n")
	for b.Len() < 19_000 {
		fmt.Fprintf(&b, "### Month %d\n\nThe team met the plan for the month: spending stayed close to the budget, the largest item was travel, and the forecast for the rest of the quarter is unchanged. A line break follows  \nand the paragraph goes on after it with a [link to the plan](https://example.com/plan) and `inline code`.\n\n", b.Len()/1000)
	}
	b.WriteString("---\n\nThat is the whole review.\n\n[^1]: The script reads the CSV export from the accounting system.\n")
	return b.String()
}
