// Starts Swagger UI on the OpenAPI document of this server. Kept by hand
// (see httpapi/internal/docsgen); loaded by index.html after the bundle.
(function () {
  "use strict";
  var root = document.getElementById("quiver-docs");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-openapi"),
    domNode: root,
    layout: "BaseLayout",
    presets: [SwaggerUIBundle.presets.apis],
    // Nothing leaves for another origin: no validator badge, and no
    // ?url= or ?configUrl= that would load a document from elsewhere.
    validatorUrl: null,
    queryConfigEnabled: false,
    // Every operation's form is ready to send; the key entered once in
    // Authorize stays in the page's memory, never in localStorage.
    tryItOutEnabled: true,
    persistAuthorization: false,
    displayRequestDuration: true,
    deepLinking: true,
    filter: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    supportedSubmitMethods: ["get", "post", "delete"]
  });
})();
