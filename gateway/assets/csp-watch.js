// Records this page's Content-Security-Policy violations for the browser test (sessionStorage "cgw-csp").
document.addEventListener("securitypolicyviolation", function (event) {
  var seen = JSON.parse(sessionStorage.getItem("cgw-csp") || "[]");
  seen.push(event.violatedDirective + " " + event.blockedURI);
  sessionStorage.setItem("cgw-csp", JSON.stringify(seen));
});
