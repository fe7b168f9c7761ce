// Draws the dashboard's charts from the numbers in #dashboard-data (the same as the tables beside them).
// Solid and hatched-looking (dashed border) series, so the two years stay apart on a black-and-white printout.
document.addEventListener("DOMContentLoaded", () => {
  const data = JSON.parse(document.getElementById("dashboard-data").textContent);
  const colours = ["#7a8ca3", "#1f4e79"];
  const common = {
    animation: false, responsive: true, maintainAspectRatio: false,
    plugins: { legend: { position: "bottom" } },
    scales: { y: { beginAtZero: true } },
  };
  const draw = (id, chart, type, money) => {
    const datasets = Object.entries(chart.series).map(([label, values], i) => ({
      label, data: values, backgroundColor: colours[i % 2], borderColor: "#000",
      borderWidth: 1, borderDash: i ? [] : [4, 2],
    }));
    const options = structuredClone(common);
    if (money) options.scales.y.ticks = { callback: (v) => "$" + v };
    new Chart(document.getElementById(id), { type, data: { labels: chart.labels, datasets }, options });
  };
  draw("chart-licenses", data.licenses, "bar", false);
  draw("chart-revenue", data.revenue, "bar", true);
  draw("chart-cases", data.cases, "bar", false);
  // Redraw at paper width before printing, so the canvas is sharp and fits the page.
  window.addEventListener("beforeprint", () => { for (const id in Chart.instances) Chart.instances[id].resize(); });
});
